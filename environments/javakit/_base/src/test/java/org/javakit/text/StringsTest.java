package org.javakit.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class StringsTest {
    @Test
    void slugifiesATitle() {
        assertEquals("hello-world", Strings.slugify("Hello, World!"));
    }

    @Test
    void countsVowels() {
        assertEquals(3, Strings.countVowels("education") - 2);
    }
}
