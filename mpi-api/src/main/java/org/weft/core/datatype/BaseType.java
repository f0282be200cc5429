package org.weft.core.datatype;

/**
 * The primitive element types of the Java bindings, with their size on the wire and the Java array they live
 * in. {@code CHAR} is a Java {@code char} (2 bytes), {@code BOOLEAN} one byte.
 */
public enum BaseType {
    BYTE(1, byte[].class),
    CHAR(2, char[].class),
    SHORT(2, short[].class),
    BOOLEAN(1, boolean[].class),
    INT(4, int[].class),
    LONG(8, long[].class),
    FLOAT(4, float[].class),
    DOUBLE(8, double[].class);

    /** {@code values()} without a copy per call: {@link #of} runs per message. */
    private static final BaseType[] ALL = values();

    private final int bytes;
    private final Class<?> arrayClass;

    BaseType(int bytes, Class<?> arrayClass) {
        this.bytes = bytes;
        this.arrayClass = arrayClass;
    }

    /** Size of one element in bytes. */
    public int bytes() {
        return bytes;
    }

    /** The base type held by arrays of {@code arrayClass}; {@code IllegalArgumentException} for other classes. */
    public static BaseType of(Class<?> arrayClass) {
        BaseType type = heldBy(arrayClass);
        if (type == null) {
            throw new IllegalArgumentException("not a primitive array class: " + arrayClass);
        }
        return type;
    }

    /** The base type held by arrays of {@code arrayClass}, or {@code null} if it is not a primitive array class. */
    public static BaseType heldBy(Class<?> arrayClass) {
        for (BaseType type : ALL) {
            if (type.arrayClass == arrayClass) {
                return type;
            }
        }
        return null;
    }

    /** The Java array type that holds elements of this type. */
    public Class<?> arrayClass() {
        return arrayClass;
    }
}
