package org.javakit.text;

import java.util.Map;
import java.util.TreeMap;

/** Counts words. */
public class WordCounter {
    /** Each word of text (runs of letters and digits), lower-cased, with how often it occurs. */
    public static Map<String, Integer> count(String text) {
        throw new UnsupportedOperationException("not implemented");
    }
}
