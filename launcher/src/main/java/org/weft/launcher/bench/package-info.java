/**
 * What {@code weft bench} does with a benchmark's figures: reads the table the benchmark reports on its output
 * ({@link org.weft.launcher.bench.ResultLines}, written by {@code org.weft.bench.Results} in the ranks), shows the
 * progress of a sweep ({@link org.weft.launcher.bench.Progress}), writes it as CSV
 * ({@link org.weft.launcher.bench.TableCsv}) and as a PNG plot ({@link org.weft.launcher.bench.TablePlot}), runs
 * Open MPI's C twin of a benchmark beside it ({@link org.weft.launcher.bench.CReference}) and sets two runs against
 * each other ({@link org.weft.launcher.bench.ResultTable#merge}).
 */
package org.weft.launcher.bench;
