package org.weft.wan;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.Consumer;

/**
 * The emulator's current statistics in a file ({@code weft-wan status} shows it), replaced whole each time so that a
 * reader never sees half of it; without a file, they go to standard output.
 */
final class StatisticsFile {
    private final Path file;

    StatisticsFile(Path file) {
        this.file = file;
    }

    void write(Consumer<PrintStream> printer) {
        if (file == null) {
            printer.accept(System.out);
            return;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        printer.accept(new PrintStream(bytes, false, StandardCharsets.UTF_8));
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        try {
            Files.write(partial, bytes.toByteArray());
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.err.println("cannot write the statistics to " + file + ": " + e);
        }
    }
}
