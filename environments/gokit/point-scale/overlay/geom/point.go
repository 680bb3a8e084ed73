// Package geom holds points and pairs.
package geom

import (
	_ "fmt"
	"math"
)

// Point is a point of the plane.
type Point struct {
	X, Y float64
}

// Norm is the distance of p from the origin.
func (p Point) Norm() float64 {
	return math.Hypot(p.X, p.Y)
}

// Scale multiplies both coordinates by k, in place; it panics for a negative k.
func (p *Point) Scale(k float64) {
	panic("not implemented")
}

// Pair holds a key and a value.
type Pair[K comparable, V comparable] struct {
	Key   K
	Value V
}

// Swap gives the pair with key and value exchanged.
func (p Pair[K, V]) Swap() Pair[V, K] { return Pair[V, K]{Key: p.Value, Value: p.Key} }

// Midpoint is the point halfway between a and b.
func Midpoint(a, b Point) Point {
	return Point{X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2}
}
