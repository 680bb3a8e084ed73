"""Calendar arithmetic on `dateutil`, which the code imports but pyproject.toml does not declare."""

import datetime

from dateutil.relativedelta import relativedelta


def add_months(year, month, day, months):
    """The date `months` months after `year`-`month`-`day` (before it when negative), as a
    `(year, month, day)` tuple. A day past the end of the target month becomes that month's last
    day (`add_months(2024, 1, 31, 1)` is `(2024, 2, 29)`). An impossible start date raises
    `ValueError`.
    """
    start = datetime.date(year, month, day)
    end = start + relativedelta(months=months)
    return (end.year, end.month, end.day)
