from parsekit.checksums import is_valid_isbn13, is_valid_luhn, isbn10_check_digit, luhn_check_digit




def test_isbn():
    assert isbn10_check_digit("030640615") == "2"
    assert is_valid_isbn13("9780306406157")
