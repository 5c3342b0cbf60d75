#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The two readings every input goes through; made once, as their importers hold no per-input state.
private let reading = OneReading()

/// libFuzzer's set-up hook, called once before the first input: the process's time zone pinned to
/// UTC, so that a run does not depend on the machine it runs on.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    setenv("TZ", "UTC", 1)
    return 0
}

/// libFuzzer's entry point: one input through both readings (`OneReading`).
///
/// When they differ, this prints what differed and aborts, so that libFuzzer saves the input.
///
/// ```
/// $ scripts/fuzz --target reading --replay Fuzz/regressions/folded-rrule-name.ics
/// streakcal-fuzz-reading: the readings differ: sessions: ...
/// ```
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let difference = reading.check(bytes) {
        let message = Array("streakcal-fuzz-reading: the readings differ: \(difference)\n".utf8)
        _ = message.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        abort()
    }
    return 0
}
