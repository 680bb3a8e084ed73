package org.javakit.text;

import java.util.ArrayList;
import java.util.List;

/** String helpers. */
public final class Strings {
    private Strings() {
    }

    /**
     * Returns s with its characters in reverse order.
     *
     * @throws IllegalArgumentException when s is empty
     */
    public static String reverse(String s) {
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty input");
        }
        StringBuilder out = new StringBuilder();
        for (int i = s.length() - 1; i >= 0; i--) {
            out.append(s.charAt(i));
        }
        return out.toString();
    }

    /** Lower-case words of text joined by single dashes; characters other than letters and digits separate words. */
    public static String slugify(String text) {
        List<String> words = splitWords(text.toLowerCase());
        if (words.isEmpty()) {
            return "";
        }
        return String.join("-", words);
    }

    /** The runs of letters and digits of text, in order. */
    static List<String> splitWords(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (Character.isLetterOrDigit(c)) {
                word.append(c);
            } else if (word.length() > 0) {
                words.add(word.toString());
                word.setLength(0);
            }
        }
        if (word.length() > 0) {
            words.add(word.toString());
        }
        return words;
    }

    /** How many of the characters of s are vowels (a, e, i, o, u, either case). */
    public static int countVowels(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            if ("aeiouAEIOU".indexOf(s.charAt(i)) >= 0) {
                n++;
            }
        }
        return n;
    }

    /** Whether c is one of a, e, i, o, u, in either case. */
    private static boolean isVowel(char c) {
        char lower = Character.toLowerCase(c);
        if (lower == 'a' || lower == 'e' || lower == 'i') {
            return true;
        }
        return lower == 'o' || lower == 'u';
    }

    /** s repeated times times, the copies separated by sep; an empty string for times 0. */
    public static String repeatJoin(String s, int times, char sep) {
        if (times < 0) {
            throw new IllegalArgumentException("negative times");
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < times; i++) {
            if (i > 0) {
                out.append(sep);
            }
            out.append(s);
        }
        return out.toString();
    }
}
