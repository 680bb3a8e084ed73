"""Check digits: Luhn (payment cards), ISBN-10 and ISBN-13."""


def _digits(text):
    raise NotImplementedError


def luhn_check_digit(payload):
    """The Luhn check digit (0-9) to append to ``payload``, a string of digits.

    Spaces and hyphens are ignored. Starting from the rightmost payload digit, every second digit
    is doubled (subtracting 9 when the result exceeds 9); the check digit brings the sum to a
    multiple of 10. Raises ValueError for an empty payload or one with other characters.

    >>> luhn_check_digit("7992739871")
    3
    """
    raise NotImplementedError


def is_valid_luhn(number):
    """True when ``number`` (digits, spaces and hyphens allowed) ends in its correct Luhn digit.

    Numbers shorter than two digits, and strings with other characters, are not valid (False,
    never an exception).

    >>> is_valid_luhn("79927398713")
    True
    >>> is_valid_luhn("79927398710")
    False
    """
    raise NotImplementedError


def isbn10_check_digit(first_nine):
    """The ISBN-10 check character for nine digits: ``"0"``-``"9"`` or ``"X"`` for ten.

    Hyphens and spaces are ignored. The weighted sum of the digits (weights 10 down to 2) plus the
    check value must be divisible by 11. Raises ValueError unless exactly nine digits remain.

    >>> isbn10_check_digit("030640615")
    '2'
    >>> isbn10_check_digit("0-8044-2957")
    'X'
    """
    raise NotImplementedError


def is_valid_isbn13(isbn):
    """True when ``isbn`` (hyphens and spaces allowed) is a valid ISBN-13.

    It must have 13 digits, start with 978 or 979, and its digits weighted alternately 1 and 3 must
    sum to a multiple of 10. Anything else is False, never an exception.

    >>> is_valid_isbn13("978-0-306-40615-7")
    True
    >>> is_valid_isbn13("977-0-306-40615-7")
    False
    """
    raise NotImplementedError
