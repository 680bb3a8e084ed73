//! Text helpers.

/// Turns a title into a URL slug: lowercase ASCII letters and digits, words joined by `-`.
pub fn slugify(s: &str) -> String {
    let mut out = String::new();
    let mut pending_dash = false;
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            if pending_dash && !out.is_empty() {
                out.push('-');
            }
            pending_dash = false;
            out.push(c.to_ascii_lowercase());
        } else {
            pending_dash = true;
        }
    }
    out
}

/// Counts the words of `s`: runs of characters that are not whitespace.
pub fn word_count(s: &str) -> usize {
    let mut count = 0;
    let mut inside = false;
    for c in s.chars() {
        if c.is_whitespace() {
            inside = false;
        } else if !inside {
            inside = true;
            count += 1;
        }
    }
    count
}

/// Reports whether `c` is an ASCII vowel, either case.
fn is_vowel(c: char) -> bool {
    matches!(c.to_ascii_lowercase(), 'a' | 'e' | 'i' | 'o' | 'u')
}

/// Counts the ASCII vowels of `s`.
pub fn vowel_count(s: &str) -> usize {
    s.chars().filter(|c| is_vowel(*c)).count()
}

/// Parses `key=value` where value is a signed integer; `None` when there is no `=`, the key is
/// empty, or the value is not a number. Whitespace around key and value is ignored.
pub fn parse_pair(s: &str) -> Option<(String, i64)> {
    let (key, value) = s.split_once('=')?;
    let key = key.trim();
    if key.is_empty() {
        return None;
    }
    let value: i64 = value.trim().parse().ok()?;
    Some((key.to_string(), value))
}

/// Capitalises the first letter of `word` and lowercases the rest.
fn capitalize(word: &str) -> String {
    unimplemented!()
}

/// Title-cases each space-separated word of `s`.
pub fn title_case(s: &str) -> String {
    s.split(' ').map(capitalize).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(slugify("Hello, World!"), "hello-world");
        assert_eq!(slugify("  Rust 2021 edition "), "rust-2021-edition");
    }

    #[test]
    fn pairs() {
        assert_eq!(parse_pair("width = 42"), Some((String::from("width"), 42)));
        assert_eq!(parse_pair("=1"), None);
        assert_eq!(parse_pair("n=-7"), Some((String::from("n"), -7)));
    }

    #[test]
    fn counts_words() {
        assert_eq!(word_count("one two  three"), 3);
    }
}
