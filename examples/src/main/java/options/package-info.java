/** What the examples share: their {@code NAME=VALUE} command-line arguments. */
package options;
