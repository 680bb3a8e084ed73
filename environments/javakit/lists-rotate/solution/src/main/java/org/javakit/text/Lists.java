package org.javakit.text;

import java.util.ArrayList;
import java.util.List;

/** List helpers. */
public final class Lists {
    private Lists() {
    }

    /** xs rotated left by k places (a negative k rotates right); an empty list stays empty. */
    public static <T> List<T> rotate(List<T> xs, int k) {
        List<T> out = new ArrayList<>();
        int n = xs.size();
        for (int i = 0; i < n; i++) {
            out.add(xs.get(Math.floorMod(i + k, n)));
        }
        return out;
    }
}
