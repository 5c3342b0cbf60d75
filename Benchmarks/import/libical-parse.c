/*
 * libical's whole-document parse, and nothing else: the baseline of issue 5's first target.
 *
 *   cc -O2 -o libical-parse libical-parse.c $(pkg-config --cflags --libs libical)
 *   ./libical-parse FILE.ics
 *
 * Reads FILE into one buffer, parses it with icalparser_parse_string (one tree for the whole
 * document), walks every VEVENT of every VCALENDAR (reading DTSTART so the walk is not empty work),
 * frees the tree and the buffer. Prints "VEVENTs: N" on standard output; exit status 1 when the file
 * cannot be read or libical returns no component.
 */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>

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

static long count_events(icalcomponent *calendar, long *checksum) {
    long events = 0;
    for (icalcomponent *event = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT);
         event != NULL;
         event = icalcomponent_get_next_component(calendar, ICAL_VEVENT_COMPONENT)) {
        struct icaltimetype start = icalcomponent_get_dtstart(event);
        *checksum += start.day + start.hour;
        events++;
    }
    return events;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.ics\n", argv[0]);
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
    printf("VEVENTs: %ld (checksum %ld)\n", events, checksum);
    return 0;
}
