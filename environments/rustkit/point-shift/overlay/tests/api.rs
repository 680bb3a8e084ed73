use rustkit::geom::Point;
use rustkit::numbers::{digits, gcd};

#[test]
fn gcd_of_two() {
    assert_eq!(gcd(12, 18), 6);
}

#[test]
fn digits_of_a_number() {
    assert_eq!(digits(907), vec![9, 0, 7]);
}


