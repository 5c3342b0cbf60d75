// Calendars where they live: a folder (a vdir, one .ics per event) read as one calendar, and an
// address, fetched through the cache; offline, an address never fetched is an error that names it.
import StreakCalRemote  // the umbrella, with calendars at addresses

let folder = try CalendarInputs(["Fixtures"])
print(folder.sources.count, folder.sources[0].name)
// Prints "34 Fixtures/all-day-events.ics"

var downloads = DownloadOptions()
downloads.isOffline = true  // the cache only: no request leaves the machine
downloads.cacheFolder = ".build/snippet-cache"
do {
    _ = try CalendarInputs(["webcal://calendar.example.com/team.ics"], downloads: downloads)
} catch {
    print(error.path, "-", error.reason.prefix(20))
}
// Prints "https://calendar.example.com/team.ics - no copy in the cache"
