"""Check digits: Luhn (payment cards), ISBN-10 and ISBN-13."""


def _digits(text):
    cleaned = text.replace(" ", "").replace("-", "")
    if not cleaned.isdigit():
        raise ValueError("not a digit string: %r" % text)
    return [int(c) for c in cleaned]


def luhn_check_digit(payload):
    """The Luhn check digit (0-9) to append to ``payload``, a string of digits.

    Spaces and hyphens are ignored. Starting from the rightmost payload digit, every second digit
    is doubled (subtracting 9 when the result exceeds 9); the check digit brings the sum to a
    multiple of 10. Raises ValueError for an empty payload or one with other characters.

    >>> luhn_check_digit("7992739871")
    3
    """
    digits = _digits(payload)
    total = 0
    for index, digit in enumerate(reversed(digits)):
        if index % 2 == 0:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return (10 - total % 10) % 10


def is_valid_luhn(number):
    """True when ``number`` (digits, spaces and hyphens allowed) ends in its correct Luhn digit.

    Numbers shorter than two digits, and strings with other characters, are not valid (False,
    never an exception).

    >>> is_valid_luhn("79927398713")
    True
    >>> is_valid_luhn("79927398710")
    False
    """
    try:
        digits = _digits(number)
    except ValueError:
        return False
    if len(digits) < 2:
        return False
    payload = "".join(str(d) for d in digits[:-1])
    return luhn_check_digit(payload) == digits[-1]


def isbn10_check_digit(first_nine):
    """The ISBN-10 check character for nine digits: ``"0"``-``"9"`` or ``"X"`` for ten.

    Hyphens and spaces are ignored. The weighted sum of the digits (weights 10 down to 2) plus the
    check value must be divisible by 11. Raises ValueError unless exactly nine digits remain.

    >>> isbn10_check_digit("030640615")
    '2'
    >>> isbn10_check_digit("0-8044-2957")
    'X'
    """
    digits = _digits(first_nine)
    if len(digits) != 9:
        raise ValueError("an ISBN-10 payload has nine digits")
    total = sum(weight * digit for weight, digit in zip(range(10, 1, -1), digits))
    check = (11 - total % 11) % 11
    return "X" if check == 10 else str(check)


def is_valid_isbn13(isbn):
    """True when ``isbn`` (hyphens and spaces allowed) is a valid ISBN-13.

    It must have 13 digits, start with 978 or 979, and its digits weighted alternately 1 and 3 must
    sum to a multiple of 10. Anything else is False, never an exception.

    >>> is_valid_isbn13("978-0-306-40615-7")
    True
    >>> is_valid_isbn13("977-0-306-40615-7")
    False
    """
    try:
        digits = _digits(isbn)
    except ValueError:
        return False
    if len(digits) != 13 or digits[:3] not in ([9, 7, 8], [9, 7, 9]):
        return False
    total = 0
    for index, digit in enumerate(digits):
        total += digit * (3 if index % 2 else 1)
    return total % 10 == 0
