import StreakCal
import Foundation

extension BatchInput {
    /// The calendars at `addresses`, fetched now (through the cache, ``CalendarSubscription``), one
    /// input each: a CalDAV account as one input per calendar collection, any other address as
    /// one. An address that cannot be read becomes an input that fails with the reason, so the
    /// rest of the batch goes on; a calendar an account lists outside its origin is skipped, with
    /// the reason.
    ///
    /// Each input is named by its address (without credentials); its output name is the address
    /// without its scheme, its path's slashes as `__` (`example.com__alice__work`).
    public static func fetched(_ addresses: [String], downloads: DownloadOptions = DownloadOptions()) -> BatchDiscovery {
        var inputs: [BatchInput] = []
        var skipped: [SkippedInput] = []
        for text in addresses {
            do throws(CalendarReadError) {
                let calendars = try CalendarSubscription(text, options: downloads).calendars()
                skipped += calendars.skipped
                for subscription in calendars.subscriptions {
                    let url = subscription.address.url
                    do throws(CalendarReadError) {
                        let download = try subscription.fetch()
                        skipped += download.skipped
                        inputs.append(BatchInput(name: url, outputName: outputName(forAddress: url), content: .sources(download.sources)))
                    } catch {
                        inputs.append(BatchInput(name: url, outputName: outputName(forAddress: url), content: .unreadable(error)))
                    }
                }
            } catch {
                let name = (try? CalendarAddress(text))?.url ?? CalendarAddress.redacted(text)
                inputs.append(BatchInput(name: name, outputName: outputName(forAddress: name), content: .unreadable(error)))
            }
        }
        return BatchDiscovery(inputs: inputs, skipped: skipped)
    }

    /// `https://example.com/alice/work/` as `example.com__alice__work`; ``/StreakCal/BatchReport`` makes it a
    /// safe, distinct file name.
    static func outputName(forAddress url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<query] }
        var parts = rest.split(separator: "/").map(String.init)
        if let last = parts.last, hasCalendarExtension(last), last.utf8.count > 4 {
            parts[parts.count - 1] = String(last.dropLast(4))
        }
        return parts.joined(separator: "__")
    }
}

extension CalendarFetcher {
    /// Fetches each address as ``CalendarSubscription`` does with `options` (through the cache),
    /// asking only the hosts of ``DownloadOptions/permittedHosts`` (none named: a batch refuses
    /// every `url` record).
    public static func subscriptions(_ options: DownloadOptions) -> CalendarFetcher {
        CalendarFetcher(permittedHosts: options.permittedHosts ?? []) { address throws(CalendarReadError) in
            try CalendarSubscription(address, options: options).fetch().sources
        }
    }
}
