//! Number helpers.

/// The greatest common divisor of `a` and `b` (Euclid's algorithm); `gcd(0, 0)` is 0.
pub fn gcd(a: u64, b: u64) -> u64 {
    let (mut a, mut b) = (a, b);
    while b != 0 {
        let r = a % b;
        a = b;
        b = r;
    }
    a
}

/// Sums `xs`, stopping before the first item that would take the sum above `limit`.
pub fn capped_sum(xs: &[i32], limit: i32) -> i32 {
    let mut sum = 0;
    for &x in xs {
        if sum + x > limit {
            break;
        }
        sum += x;
    }
    sum
}

/// Divides `a` by `b`, rounding toward negative infinity; an error when `b` is zero.
pub fn floor_div(a: i32, b: i32) -> Result<i32, String> {
    if b == 0 {
        return Err(String::from("division by zero"));
    }
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        Ok(q - 1)
    } else {
        Ok(q)
    }
}

/// `part` as a whole percentage of `whole`, rounded down; an error when `whole` is zero.
pub fn percent_of(part: u32, whole: u32) -> Result<u32, String> {
    if whole == 0 {
        return Err(format!("{} of nothing", part));
    }
    let scaled = part as u64 * 100;
    Ok((scaled / whole as u64) as u32)
}

/// The decimal digits of `n`, most significant first.
pub fn digits(n: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut n = n;
    loop {
        out.push(n % 10);
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    out
}

/// The arithmetic mean of `xs`, or `None` for an empty slice.
pub fn mean(xs: &[f64]) -> Option<f64> {
    unimplemented!()
}

/// The `k`-th item (from 0) of `xs` in ascending order; panics when `k` is out of range.
pub fn kth_smallest(xs: &[i64], k: usize) -> i64 {
    let mut sorted = xs.to_vec();
    sorted.sort();
    sorted[k]
}
