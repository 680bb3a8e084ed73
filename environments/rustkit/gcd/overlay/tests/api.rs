use rustkit::geom::Point;
use rustkit::numbers::{digits, gcd};



#[test]
fn digits_of_a_number() {
    assert_eq!(digits(907), vec![9, 0, 7]);
}

#[test]
fn points_move() {
    let mut p = Point::new(1, 2);
    assert_eq!(p.shift(-3, 1), 5);
    assert_eq!(p.quadrant(), 2);
}
