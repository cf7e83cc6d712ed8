/*
 * The timestamp after the name on a "---" / "+++" line, as `diff -u`
 * (POSIX and GNU) writes it and `git apply` recognises it:
 *
 *     --- foo.c<TAB>2024-01-02 10:00:00.000000000 +0100
 *     --- foo.c   2024-01-02 10:00:00 +01:00       (spaces: pasted text)
 *
 * The stamp is a date (yyyy-mm-dd or yy-mm-dd), an optional time
 * (hh:mm:ss with an optional fraction) and an optional zone (+hhmm or
 * +hh:mm), at the end of the line, after one TAB or any run of spaces.
 * GNU `diff -N` dates the absent side of a creation or a deletion at
 * the epoch: aa_diff_stamp_is_epoch tells such a stamp.
 */
#include <string.h>

#include "format/diff_int.h"

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

/* s[0..n) are all digits. */
static int digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!digit(s[i]))
			return 0;
	return 1;
}

/* A trailing " +0100" (any digits after the sign) or " +01:00", else 0. */
static size_t zone_len(const char *s, size_t len)
{
	const char *z;

	if (len >= 6) {
		z = s + len - 6;
		if (z[0] == ' ' && (z[1] == '+' || z[1] == '-') && digits(z + 2, 4))
			return 6;
	}
	if (len >= 7) {
		z = s + len - 7;
		if (z[0] == ' ' && (z[1] == '+' || z[1] == '-') && digits(z + 2, 2) &&
		    z[4] == ':' && digits(z + 5, 2))
			return 7;
	}
	return 0;
}

/* A trailing " hh:mm:ss", else 0. */
static size_t short_time_len(const char *s, size_t len)
{
	const char *t;

	if (len < 9)
		return 0;
	t = s + len - 9;
	if (t[0] != ' ' || !digits(t + 1, 2) || t[3] != ':' ||
	    !digits(t + 4, 2) || t[6] != ':' || !digits(t + 7, 2))
		return 0;
	return 9;
}

/* A trailing " hh:mm:ss" or " hh:mm:ss.fraction", else 0. */
static size_t time_len(const char *s, size_t len)
{
	size_t n = len, t;

	if (!n || !digit(s[n - 1]))
		return 0;
	while (n && digit(s[n - 1]))
		n--;
	if (n && s[n - 1] == '.' && (t = short_time_len(s, n - 1)) != 0)
		return len - (n - 1) + t;
	return short_time_len(s, len);
}

/* A trailing "yy-mm-dd" or "yyyy-mm-dd", else 0. */
static size_t date_len(const char *s, size_t len)
{
	const char *d;

	if (len < 8)
		return 0;
	d = s + len - 8;
	if (!digits(d, 2) || d[2] != '-' || !digits(d + 3, 2) || d[5] != '-' ||
	    !digits(d + 6, 2))
		return 0;
	if (len >= 10 && digits(d - 2, 2))
		return 10;
	return 8;
}

size_t aa_diff_stamp_len(const char *s, size_t len, size_t *sep)
{
	size_t end = len, n, spaces = 0;

	if (!len || !digit(s[len - 1]))
		return 0;
	end -= zone_len(s, end);
	end -= time_len(s, end);
	n = date_len(s, end);
	if (!n || end == n)
		return 0; /* no date, or nothing before it */
	end -= n;
	if (s[end - 1] == '\t') {
		*sep = 1;
		return len - end + 1;
	}
	while (spaces < end && s[end - 1 - spaces] == ' ')
		spaces++;
	if (!spaces)
		return 0; /* the date is glued to the name */
	*sep = spaces;
	return len - end + spaces;
}

/* Two digits at s as a number. */
static int two(const char *s)
{
	return (s[0] - '0') * 10 + (s[1] - '0');
}

/* " +hhmm" or " +hh:mm" filling s[0..len): 1 and *m, minutes east of UTC. */
static int zone_minutes(const char *s, size_t len, int *m)
{
	int colon = len == 7;

	if (!len || zone_len(s, len) != len || two(s + 4 + colon) > 59)
		return 0;
	*m = two(s + 2) * 60 + two(s + 4 + colon);
	if (s[1] == '-')
		*m = -*m;
	return 1;
}

/*
 * The stamp (without its separator) is the epoch: 1970-01-01 east of
 * Greenwich or 1969-12-31 west of it, whole minutes with zero seconds
 * (a fraction, if any, all zeros), and a zone that makes the local time
 * exactly 00:00 UTC. A stamp without a zone is not the epoch (its time
 * could be any), as in git.
 */
int aa_diff_stamp_is_epoch(const char *s, size_t len)
{
	int west, hh, mm, zone;
	size_t i = 19;

	if (len < 25 || s[10] != ' ' || s[13] != ':' || s[16] != ':' ||
	    !digits(s + 11, 2) || !digits(s + 14, 2) || memcmp(s + 17, "00", 2))
		return 0;
	if (!memcmp(s, "1970-01-01", 10))
		west = 0;
	else if (!memcmp(s, "1969-12-31", 10))
		west = 1;
	else
		return 0;
	hh = two(s + 11);
	mm = two(s + 14);
	if (hh > 23 || mm > 59)
		return 0;
	if (s[i] == '.') {
		for (i++; i < len && s[i] == '0'; i++)
			;
		if (i == 20)
			return 0; /* "." without a digit */
	}
	if (!zone_minutes(s + i, len - i, &zone))
		return 0;
	return hh * 60 + mm - zone == (west ? 24 * 60 : 0);
}
