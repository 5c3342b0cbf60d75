package import Streaks

/// A session that a report only counts on its day (`SessionImporter.countsOnly`): when it starts
/// and ends, its points, and where its event begins — a plain value with nothing to retain, so that
/// the hundreds of thousands of instances of a large import are made, handed on and counted without
/// a string or an array for each.
///
/// It stands for the `Session` a whole import makes of the same event: the same times, points and
/// source line.
package struct CountedSession: Hashable, Sendable {
    package var start: SessionTime
    package var end: SessionTime
    package var points: Int
    /// The BEGIN line of the event it comes from: in the stream of every input read as one until its
    /// batch is mapped back (`InputMap`), then in its own input.
    package var line: Int
    /// The input its event stands in, by index among the sources read (0 until its batch is mapped).
    package var input = 0
    /// Its event's bits under the import's `SessionClassifier` (0 without one).
    package var classes: UInt64 = 0

    package init(start: SessionTime, end: SessionTime, points: Int, line: Int, input: Int = 0, classes: UInt64 = 0) {
        self.start = start
        self.end = end
        self.points = max(0, points)
        self.line = line
        self.input = input
        self.classes = classes
    }

    /// Whether it starts or ends at a floating time, which a report reads in its own zone.
    package var floats: Bool { start.isFloating || end.isFloating }

    /// The session with floating times read on `zone`'s wall clock and, with `PointsRule.minutes`,
    /// its points recounted there, as `Session.readingFloatingTimes(in:pointsRule:)` reads them.
    package func readingFloatingTimes(in zone: TimeZoneRules, pointsRule: PointsRule) -> CountedSession {
        guard floats else { return self }
        var session = self
        session.start = start.readingFloatingTime(in: zone)
        session.end = end.readingFloatingTime(in: zone)
        if pointsRule == .minutes { session.points = session.start.wholeMinutes(until: session.end) }
        return session
    }
}
