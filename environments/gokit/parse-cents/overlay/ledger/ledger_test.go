package ledger

import "testing"



func TestApply(t *testing.T) {
	l := NewLedger(500)
	if err := l.Apply(-400); err != nil {
		t.Fatal(err)
	}
	if err := l.Apply(-200); err != ErrLimit {
		t.Fatalf("want ErrLimit, got %v", err)
	}
	if got := l.Headroom(); got != 100 {
		t.Fatalf("Headroom = %d", got)
	}
}
