package org.weft.core.io;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/** Turns the file system's exceptions into MPI-IO error classes. */
final class IoFailures {
    private IoFailures() {
    }

    /** The MPI error for {@code failure}, raised while doing {@code what} on {@code path}. */
    static DeviceException of(String what, String path, IOException failure) {
        return MpiErrors.error(errorClass(failure), what + " " + path + ": " + failure);
    }

    static int errorClass(IOException failure) {
        return switch (failure) {
            case NoSuchFileException e -> ErrorClass.ERR_NO_SUCH_FILE;
            case FileAlreadyExistsException e -> ErrorClass.ERR_FILE_EXISTS;
            case AccessDeniedException e -> ErrorClass.ERR_ACCESS;
            case ClosedChannelException e -> ErrorClass.ERR_FILE; // the rank's handle on the file is gone
            case FileSystemException e when noSpace(e) -> ErrorClass.ERR_NO_SPACE;
            default -> noSpace(failure) ? ErrorClass.ERR_NO_SPACE : ErrorClass.ERR_IO;
        };
    }

    private static boolean noSpace(IOException failure) {
        String message = failure.getMessage();
        return message != null && message.contains("No space left");
    }
}
