"""What the Go, Rust and Java mutate runs share of their token mutants: what a token that is not
an operator becomes (each language finds its tokens and its operators' swaps itself)."""


def replacements(tok, call_swaps):
    """The tokens `tok` is replaced by, one mutant each: `true`/`false` swapped, a string literal
    emptied (an empty one made "x"), a call swapped for its mirror (`call_swaps`), an integer
    constant moved by one (0 → 1; 1 → 0 and 2; n → n+1 and n-1)."""
    if tok == "true":
        return ["false"]
    if tok == "false":
        return ["true"]
    if tok.startswith('"'):
        return ['"x"'] if tok == '""' else ['""']
    if tok in call_swaps:
        return list(call_swaps[tok])
    n = int(tok)
    return ["1"] if n == 0 else ["0", str(n + 1)] if n == 1 else [str(n + 1), str(n - 1)]
