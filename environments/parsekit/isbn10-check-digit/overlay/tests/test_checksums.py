from parsekit.checksums import is_valid_isbn13, is_valid_luhn, isbn10_check_digit, luhn_check_digit


def test_luhn():
    assert luhn_check_digit("7992739871") == 3
    assert is_valid_luhn("4539 1488 0343 6467")
    assert not is_valid_luhn("abc")


