//! Points on an integer grid.

/// A point on the integer grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

impl Point {
    /// A point at `(x, y)`.
    pub fn new(x: i32, y: i32) -> Self {
        Point { x, y }
    }

    /// The quadrant of the point: 1 to 4 counter-clockwise from `x > 0, y > 0`; 0 on an axis.
    pub fn quadrant(&self) -> u8 {
        if self.x == 0 || self.y == 0 {
            0
        } else if self.x > 0 {
            if self.y > 0 { 1 } else { 4 }
        } else if self.y > 0 {
            2
        } else {
            3
        }
    }

    /// Moves the point by `(dx, dy)` and returns its Manhattan distance from the origin afterwards.
    pub fn shift(&mut self, dx: i32, dy: i32) -> i32 {
        self.x += dx;
        self.y += dy;
        self.x.abs() + self.y.abs()
    }
}
