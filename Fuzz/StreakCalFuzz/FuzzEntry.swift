#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The round trip every input goes through; made once, as its importer holds no per-input state.
private let roundTrip = RoundTrip()

/// libFuzzer's set-up hook, called once before the first input.
///
/// Pins the process's time zone to UTC (the report falls back to it when a calendar declares no
/// usable X-WR-TIMEZONE), so that a run does not depend on the machine it runs on.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    setenv("TZ", "UTC", 1)
    return 0
}

/// libFuzzer's entry point: one input through `RoundTrip`.
///
/// When the oracle finds the annotated calendar's totals differ from the input's (or a report cannot
/// be rendered), this prints what differed and aborts, so that libFuzzer saves the input as a crash.
///
/// ```
/// $ scripts/fuzz --replay Fuzz/findings/impossible-date-rolls-over.ics
/// streakcal-fuzz: oracle failed: the annotated calendar's per-day totals differ from the input's on 1 day: ...
/// ==12345== ERROR: libFuzzer: deadly signal
/// ```
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let failure = roundTrip.check(bytes) {
        let message = Array("streakcal-fuzz: oracle failed: \(failure)\n".utf8)
        _ = message.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        abort()
    }
    return 0
}
