// Package ledger keeps a running balance with a credit limit, and parses amounts written as text.
package ledger

import (
	"errors"
	"fmt"
	"strings"
)

// ErrLimit is returned when a withdrawal would take the balance below the credit limit.
var ErrLimit = errors.New("ledger: over the credit limit")

// Ledger is a balance in cents that may go down to -limit and no further. Build it with NewLedger.
type Ledger struct {
	balance int
	limit   int
	entries []string
}

// NewLedger gives an empty ledger whose balance may go down to -limit (a negative limit counts as 0).
func NewLedger(limit int) *Ledger {
	if limit < 0 {
		limit = 0
	}
	return &Ledger{limit: limit}
}

// Apply adds amount (in cents, negative for a withdrawal) to the balance and records it; a
// withdrawal that would go below -limit changes nothing and returns ErrLimit.
func (l *Ledger) Apply(amount int) error {
	next := l.balance + amount
	if next < -l.limit {
		return ErrLimit
	}
	l.balance = next
	sign := "+"
	if amount < 0 {
		sign = "-"
		amount = -amount
	}
	l.entries = append(l.entries, fmt.Sprintf("%s%d.%02d", sign, amount/100, amount%100))
	return nil
}

// Headroom is how many cents can still be withdrawn.
func (l *Ledger) Headroom() int {
	room := l.balance + l.limit
	if room < 0 {
		return 0
	}
	return room
}

// ParseCents reads an amount such as "12.50", "-3", "+0.07" or "1,234.5" into cents. It rejects
// more than two decimals, an empty amount and anything but digits, one sign, one point and commas.
func ParseCents(text string) (int, error) {
	s := strings.ReplaceAll(strings.TrimSpace(text), ",", "")
	negative := false
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		negative = s[0] == '-'
		s = s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" {
		return 0, fmt.Errorf("ledger: no amount in %q", text)
	}
	if len(frac) > 2 {
		return 0, fmt.Errorf("ledger: more than two decimals in %q", text)
	}
	for len(frac) < 2 {
		frac += "0"
	}
	cents := 0
	for _, r := range whole + frac {
		if r < '0' || r > '9' {
			return 0, fmt.Errorf("ledger: %q is not an amount", text)
		}
		cents = cents*10 + int(r-'0')
	}
	if negative {
		cents = -cents
	}
	return cents, nil
}
