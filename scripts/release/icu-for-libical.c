// The ICU functions libical calls, answered by the ICU that Foundation links in anyway.
//
// Debian's libical.a calls 16 functions of ICU's C API (for RSCALE, RFC 7529: recurrence in other
// calendar systems), under Debian's versioned names (ucal_open_72, ...). Linking Debian's ICU
// archives for them put a second copy of ICU and its data, some 35 MB, beside swift-foundation's
// (_FoundationICU, whose C functions are named swift_ucal_open, ...). scripts/build-release
// compiles this file into the self-contained binary instead: each function forwards to
// Foundation's copy. ICU keeps its C API stable across versions (same arguments, same enum values),
// and every call libical makes goes to the one copy, so a UCalendar is only ever opened, used and
// closed by the same ICU.
//
// ICU's headers rename each function to its versioned name (urename.h), so `ucal_open` below
// defines Debian's `ucal_open_72` (or whatever version the installed libicu-dev has).
#include <unicode/ucal.h>
#include <unicode/uenum.h>
#include <unicode/uloc.h>
#include <unicode/ustring.h>

#define FORWARD_DECLARATION(result, name, parameters) result swift_##name parameters;

FORWARD_DECLARATION(UCalendar *, ucal_open, (const UChar *, int32_t, const char *, UCalendarType, UErrorCode *))
FORWARD_DECLARATION(void, ucal_close, (UCalendar *))
FORWARD_DECLARATION(void, ucal_add, (UCalendar *, UCalendarDateFields, int32_t, UErrorCode *))
FORWARD_DECLARATION(int32_t, ucal_get, (const UCalendar *, UCalendarDateFields, UErrorCode *))
FORWARD_DECLARATION(void, ucal_set, (UCalendar *, UCalendarDateFields, int32_t))
FORWARD_DECLARATION(int32_t, ucal_getLimit, (const UCalendar *, UCalendarDateFields, UCalendarLimitType, UErrorCode *))
FORWARD_DECLARATION(UDate, ucal_getMillis, (const UCalendar *, UErrorCode *))
FORWARD_DECLARATION(void, ucal_setMillis, (UCalendar *, UDate, UErrorCode *))
FORWARD_DECLARATION(void, ucal_setAttribute, (UCalendar *, UCalendarAttribute, int32_t))
FORWARD_DECLARATION(void, ucal_setDate, (UCalendar *, int32_t, int32_t, int32_t, UErrorCode *))
FORWARD_DECLARATION(void, ucal_setDateTime, (UCalendar *, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t, UErrorCode *))
FORWARD_DECLARATION(UEnumeration *, ucal_getKeywordValuesForLocale, (const char *, const char *, UBool, UErrorCode *))
FORWARD_DECLARATION(const char *, uenum_next, (UEnumeration *, int32_t *, UErrorCode *))
FORWARD_DECLARATION(void, uenum_close, (UEnumeration *))
FORWARD_DECLARATION(int32_t, uloc_setKeywordValue, (const char *, const char *, char *, int32_t, UErrorCode *))
FORWARD_DECLARATION(UChar *, u_strFromUTF8Lenient, (UChar *, int32_t, int32_t *, const char *, int32_t, UErrorCode *))

UCalendar *ucal_open(const UChar *zone, int32_t length, const char *locale, UCalendarType type, UErrorCode *status) {
    return swift_ucal_open(zone, length, locale, type, status);
}
void ucal_close(UCalendar *calendar) { swift_ucal_close(calendar); }
void ucal_add(UCalendar *calendar, UCalendarDateFields field, int32_t amount, UErrorCode *status) {
    swift_ucal_add(calendar, field, amount, status);
}
int32_t ucal_get(const UCalendar *calendar, UCalendarDateFields field, UErrorCode *status) {
    return swift_ucal_get(calendar, field, status);
}
void ucal_set(UCalendar *calendar, UCalendarDateFields field, int32_t value) { swift_ucal_set(calendar, field, value); }
int32_t ucal_getLimit(const UCalendar *calendar, UCalendarDateFields field, UCalendarLimitType type, UErrorCode *status) {
    return swift_ucal_getLimit(calendar, field, type, status);
}
UDate ucal_getMillis(const UCalendar *calendar, UErrorCode *status) { return swift_ucal_getMillis(calendar, status); }
void ucal_setMillis(UCalendar *calendar, UDate time, UErrorCode *status) { swift_ucal_setMillis(calendar, time, status); }
void ucal_setAttribute(UCalendar *calendar, UCalendarAttribute attribute, int32_t value) {
    swift_ucal_setAttribute(calendar, attribute, value);
}
void ucal_setDate(UCalendar *calendar, int32_t year, int32_t month, int32_t day, UErrorCode *status) {
    swift_ucal_setDate(calendar, year, month, day, status);
}
void ucal_setDateTime(UCalendar *calendar, int32_t year, int32_t month, int32_t day, int32_t hour, int32_t minute,
                      int32_t second, UErrorCode *status) {
    swift_ucal_setDateTime(calendar, year, month, day, hour, minute, second, status);
}
UEnumeration *ucal_getKeywordValuesForLocale(const char *key, const char *locale, UBool commonlyUsed, UErrorCode *status) {
    return swift_ucal_getKeywordValuesForLocale(key, locale, commonlyUsed, status);
}
const char *uenum_next(UEnumeration *enumeration, int32_t *length, UErrorCode *status) {
    return swift_uenum_next(enumeration, length, status);
}
void uenum_close(UEnumeration *enumeration) { swift_uenum_close(enumeration); }
int32_t uloc_setKeywordValue(const char *keyword, const char *value, char *locale, int32_t capacity, UErrorCode *status) {
    return swift_uloc_setKeywordValue(keyword, value, locale, capacity, status);
}
UChar *u_strFromUTF8Lenient(UChar *destination, int32_t capacity, int32_t *length, const char *source, int32_t sourceLength,
                            UErrorCode *status) {
    return swift_u_strFromUTF8Lenient(destination, capacity, length, source, sourceLength, status);
}
