/** Point-to-point chapter: in-process worlds at several sizes and method sets, plus real multi-process jobs. */
package org.weft.tests.p2p;
