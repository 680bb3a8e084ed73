package org.javakit.num;

/** A mutable two-dimensional vector of doubles. */
public class Vec2 {
    private double x;
    private double y;

    /** A vector with the given components. */
    public Vec2(double x, double y) {
        this.x = x;
        this.y = y;
    }

    /**
     * Multiplies both components by factor, in place.
     *
     * @throws IllegalArgumentException when factor is negative
     */
    public void scale(double factor) {
        throw new UnsupportedOperationException("not implemented");
    }

    /** The Manhattan length of the vector: |x| + |y|. */
    public double manhattan() {
        double ax = x < 0 ? -x : x;
        double ay = y < 0 ? -y : y;
        return ax + ay;
    }

    /** The quadrant of the vector: 1 to 4 counter-clockwise from x > 0, y > 0; 0 on an axis. */
    public int quadrant() {
        if (x == 0 || y == 0) {
            return 0;
        }
        if (x > 0) {
            return y > 0 ? 1 : 4;
        }
        return y > 0 ? 2 : 3;
    }
}
