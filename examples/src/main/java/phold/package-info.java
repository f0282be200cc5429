/**
 * PHOLD, the standard benchmark of optimistic parallel discrete-event simulation (Time Warp): logical processes
 * exchange timestamped events, roll back on stragglers with anti-messages and agree on global virtual time with
 * collectives; the run is checked against a sequential simulation of the same seed.
 */
package phold;
