import CAllocatorSettings
#if canImport(Glibc)
import Glibc
#endif

/// The C allocator's settings for a run of `streakcal`.
///
/// The binary `scripts/build-release` builds allocates with jemalloc, linked in, whose options are
/// set before `main` (`malloc_conf`, in the `CAllocatorSettings` target): nothing is left to set.
/// With glibc's allocator (`swift build`, `swift run`, the tests), one setting is made here.
///
/// glibc gives memory freed at the top of a heap back to the kernel as soon as more than 128 KB is
/// free there. An import frees its buffers after each calendar and a batch imports many, so the
/// same pages would go back and be faulted in again, zeroed, for every calendar (and, with several
/// workers, each return interrupts the other processors to flush their TLBs). Keeping 16 MB spare
/// past each top when memory is returned makes those round trips rare. Setting it also fixes
/// glibc's threshold for mapping large blocks at 128 KB, so large buffers are mapped afresh rather
/// than taken from freed heap, which raises the peak a little.
/// This is set here, for the command, not by the library for its callers.
enum AllocatorSettings {
    /// Bytes kept past the top of a heap when memory is returned to the kernel (glibc).
    static let topPad: Int32 = 16 << 20

    /// `M_TOP_PAD` of glibc's `<malloc.h>` (which the Glibc module does not include).
    private static let topPadParameter: Int32 = -2

    /// Whether the process allocates with jemalloc (the binary `scripts/build-release` builds).
    static var isJemalloc: Bool { streakcal_allocator_is_jemalloc() != 0 }

    static func apply() {
        #if canImport(Glibc)
        guard !isJemalloc else { return }
        // `mallopt` is looked up rather than declared: the Glibc module leaves out <malloc.h>.
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: MallOpt.self)(topPadParameter, topPad)
        #endif
    }
}
