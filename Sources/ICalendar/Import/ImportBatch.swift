public import CalendarDiagnostics
public import Streaks

/// The sessions and diagnostics of one stretch of an input, as a streaming import yields them.
///
/// Batches come in input order. Events that wait for others (a recurring event and its overrides,
/// which are matched by UID, copies and cancellations) come in the batch of the chunk that completes
/// their group, or in the last batches, 64 series at a time; the very last batch has the diagnostics
/// only the end can give. At most 100 diagnostics of each kind per input, those met first.
public struct ImportBatch: Sendable {
    /// The sessions, in input order within the batch.
    public var sessions: [Session] = []
    /// For each session, the line of the event whose place in the input it takes, in the stream of
    /// every input read as one (so that sessions of several batches sort into input order).
    package var places: [Int] = []
    /// When sessions are only counted (`SessionNeeds` without `.sessions`), their counted form;
    /// `sessions` is then empty.
    package var counted: [CountedSession] = []
    /// The diagnostics, in source order within the batch.
    public var diagnostics: [Diagnostic] = []
    /// The first `X-WR-TIMEZONE` of the input read so far (`zoneEvidence.declared.first`).
    public var declaredTimeZone: String? { zoneEvidence.declared.first }
    /// The declared zones read so far, and the zones the input's times name (all known before
    /// the first batch: the first pass lists the TZIDs).
    public var zoneEvidence = ZoneEvidence()
    /// The calendars read so far, each named by its first `X-WR-CALNAME` (else by its file).
    public var sources: [ReportSource] = []
    /// The `X-WR-CALNAME`s read so far, by the line where each stands (`InputMap` makes `sources` of them).
    var calendarNames: [(line: Int, name: String)] = []

    /// Appends sessions resolved together (moved whole into a batch that holds none).
    mutating func append(_ made: PlacedSessions) {
        sessions.appendWhole(made.sessions)
        places.appendWhole(made.places)
        counted.appendWhole(made.counted)
    }
}

/// Sessions, each with the line of the event whose place in the input it takes: two arrays, so
/// that the sessions can be handed on whole (`ImportBatch`), never copied one by one; or, when
/// sessions are only counted (`SessionResolver.countsOnly`), their counted form, in the same order.
struct PlacedSessions: Sendable {
    var sessions: [Session] = []
    var places: [Int] = []
    var counted: [CountedSession] = []

    /// Appends `other`'s sessions (moving them whole when this holds none).
    mutating func append(_ other: PlacedSessions) {
        sessions.appendWhole(other.sessions)
        places.appendWhole(other.places)
        counted.appendWhole(other.counted)
    }
}

extension Array {
    /// Appends `other`, taking its storage whole when this array is empty (no element copied).
    mutating func appendWhole(_ other: [Element]) {
        if isEmpty { self = other } else { self += other }
    }
}
