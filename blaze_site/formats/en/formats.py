# The site's English look (day month year, 24-hour clock); ja and es beside this file.
DATE_FORMAT = "j M Y"
YEAR_MONTH_FORMAT = "F Y"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
DATETIME_FORMAT = "D j M Y, H:i"
