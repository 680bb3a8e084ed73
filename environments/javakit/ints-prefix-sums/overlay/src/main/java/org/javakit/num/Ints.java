package org.javakit.num;

/** Integer helpers. */
public final class Ints {
    private Ints() {
    }

    /** The greatest common divisor of a and b, never negative; gcd(0, 0) is 0. */
    public static int gcd(int a, int b) {
        a = Math.abs(a);
        b = Math.abs(b);
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    /** Whether n is a prime number. */
    public static boolean isPrime(int n) {
        if (n < 2) {
            return false;
        }
        for (int d = 2; (long) d * d <= n; d++) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }

    /** The sum of the decimal digits of n, ignoring its sign. */
    public static long digitSum(long n) {
        long sum = 0;
        n = Math.abs(n);
        while (n > 0) {
            sum += n % 10;
            n /= 10;
        }
        return sum;
    }

    /** The running sums of xs: element i is xs[0] + ... + xs[i]. */
    public static int[] prefixSums(int[] xs) {
        throw new UnsupportedOperationException("not implemented");
    }

    /** The arithmetic mean of xs. */
    public static double mean(double[] xs) {
        if (xs.length == 0) {
            throw new ArithmeticException("mean of nothing");
        }
        double sum = 0;
        for (double x : xs) {
            sum += x;
        }
        return sum / xs.length;
    }

    /** x limited to the range [lo, hi]; lo must not exceed hi. */
    public static int clamp(int x, int lo, int hi) {
        if (lo > hi) {
            throw new IllegalArgumentException("lo > hi");
        }
        return Math.max(lo, Math.min(x, hi));
    }

    /** x limited to the range [lo, hi]; NaN stays NaN; lo must not exceed hi. */
    public static double clamp(double x, double lo, double hi) {
        if (lo > hi) {
            throw new IllegalArgumentException("lo > hi");
        }
        if (Double.isNaN(x)) {
            return x;
        }
        return Math.max(lo, Math.min(x, hi));
    }
}
