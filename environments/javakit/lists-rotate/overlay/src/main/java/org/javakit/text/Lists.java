package org.javakit.text;

import java.util.ArrayList;
import java.util.List;

/** List helpers. */
public final class Lists {
    private Lists() {
    }

    /** xs rotated left by k places (a negative k rotates right); an empty list stays empty. */
    public static <T> List<T> rotate(List<T> xs, int k) {
        throw new UnsupportedOperationException("not implemented");
    }
}
