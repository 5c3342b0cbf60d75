/*
 * libical's whole-document parse, and nothing else: the baseline of issue 5's first target.
 *
 *   cc -O2 -o libical-parse libical-parse.c $(pkg-config --cflags --libs libical)
 *   ./libical-parse FILE.ics
 *   ./libical-parse --expand FROM TO FILE.ics      (FROM, TO: YYYYMMDD, TO exclusive)
 *
 * Reads FILE into one buffer, parses it with icalparser_parse_string (one tree for the whole
 * document), walks every VEVENT of every VCALENDAR (reading DTSTART so the walk is not empty work),
 * frees the tree and the buffer. Prints "VEVENTs: N" on standard output; exit status 1 when the file
 * cannot be read or libical returns no component.
 *
 * With --expand, each VEVENT is also expanded over [FROM, TO) with icalcomponent_foreach_recurrence
 * (RRULE, RDATE and EXDATE; overrides are not matched to their instances): libical's parse plus its
 * own expansion, the comparison for calendars whose cost is their occurrences rather than their
 * bytes. Prints the occurrences too.
 */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_all(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    size_t capacity = 1 << 20, used = 0;
    char *buffer = malloc(capacity + 1);
    for (;;) {
        if (!buffer) { fclose(file); return NULL; }
        size_t got = fread(buffer + used, 1, capacity - used, file);
        used += got;
        if (used < capacity) break;
        capacity *= 2;
        char *larger = realloc(buffer, capacity + 1);
        if (!larger) { free(buffer); fclose(file); return NULL; }
        buffer = larger;
    }
    int failed = ferror(file);
    fclose(file);
    if (failed) { free(buffer); return NULL; }
    buffer[used] = '\0';
    *length = used;
    return buffer;
}

static int expanding = 0;
static struct icaltimetype expand_from, expand_to;
static long occurrences = 0;

static void count_occurrence(icalcomponent *event, struct icaltime_span *span, void *data) {
    (void)event;
    *(long *)data += (long)(span->start % 7);
    occurrences++;
}

static long count_events(icalcomponent *calendar, long *checksum) {
    long events = 0;
    for (icalcomponent *event = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT);
         event != NULL;
         event = icalcomponent_get_next_component(calendar, ICAL_VEVENT_COMPONENT)) {
        struct icaltimetype start = icalcomponent_get_dtstart(event);
        *checksum += start.day + start.hour;
        if (expanding) icalcomponent_foreach_recurrence(event, expand_from, expand_to, count_occurrence, checksum);
        events++;
    }
    return events;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--expand") == 0) {
        expanding = 1;
        expand_from = icaltime_from_string(argv[2]);
        expand_to = icaltime_from_string(argv[3]);
        if (icaltime_is_null_time(expand_from) || icaltime_is_null_time(expand_to)) {
            fprintf(stderr, "%s: FROM and TO are YYYYMMDD dates\n", argv[0]);
            return 2;
        }
        argv += 3;
        argc -= 3;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: %s [--expand FROM TO] FILE.ics\n", argv[0]);
        return 2;
    }
    size_t length = 0;
    char *text = read_all(argv[1], &length);
    if (!text) {
        perror(argv[1]);
        return 1;
    }
    icalcomponent *root = icalparser_parse_string(text);
    if (!root) {
        fprintf(stderr, "%s: libical returned no component\n", argv[1]);
        free(text);
        return 1;
    }
    long events = 0, checksum = 0;
    if (icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT) {
        events = count_events(root, &checksum);
    } else {
        /* Several VCALENDARs come back wrapped in an XROOT. */
        for (icalcomponent *calendar = icalcomponent_get_first_component(root, ICAL_VCALENDAR_COMPONENT);
             calendar != NULL;
             calendar = icalcomponent_get_next_component(root, ICAL_VCALENDAR_COMPONENT)) {
            events += count_events(calendar, &checksum);
        }
        if (icalcomponent_isa(root) == ICAL_VEVENT_COMPONENT) events = 1;
    }
    icalcomponent_free(root);
    free(text);
    if (expanding) printf("VEVENTs: %ld, occurrences: %ld (checksum %ld)\n", events, occurrences, checksum);
    else printf("VEVENTs: %ld (checksum %ld)\n", events, checksum);
    return 0;
}
