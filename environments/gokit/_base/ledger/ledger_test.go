package ledger

import "testing"

func TestParseCents(t *testing.T) {
	table := []struct {
		in   string
		want int
	}{
		{"12.50", 1250},
		{"-3", -300},
		{"+0.07", 7},
		{"1,234.5", 123450},
		{" 42 ", 4200},
	}
	for _, row := range table {
		if got, err := ParseCents(row.in); err != nil || got != row.want {
			t.Errorf("ParseCents(%q) = %d, %v; want %d", row.in, got, err, row.want)
		}
	}
	for _, bad := range []string{"", "1.234", "12a", "--1"} {
		if _, err := ParseCents(bad); err == nil {
			t.Errorf("ParseCents(%q): want an error", bad)
		}
	}
}

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
