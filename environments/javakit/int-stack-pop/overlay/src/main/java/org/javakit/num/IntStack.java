package org.javakit.num;

import java.util.Arrays;

/** A stack of ints on a growing array. */
public class IntStack {
    private int[] items = new int[2];
    private int size;

    /** Pushes value on top of the stack. */
    public void push(int value) {
        if (size == items.length) {
            items = Arrays.copyOf(items, items.length * 2);
        }
        items[size] = value;
        size++;
    }

    /**
     * Removes the top value and returns it.
     *
     * @throws IllegalStateException when the stack is empty
     */
    public int pop() {
        throw new UnsupportedOperationException("not implemented");
    }
}
