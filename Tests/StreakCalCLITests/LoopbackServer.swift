import Foundation
import Testing

/// A server process a test runs on a loopback port for as long as it holds this value.
///
/// Started with `posix_spawn`, every descriptor above standard error closed before the server runs, not
/// with Foundation's `Process`: on Linux a `Process` child inherits whatever descriptors are open at
/// that moment, among them the pipes and exit-watch sockets of other tests' commands running
/// concurrently. A server living for a whole test keeps those open, so those commands never appear
/// to end, and two such tests wait for each other for ever (seen in SubscriptionTests).
final class LoopbackServer {
    let port: Int
    private let identifier: pid_t

    /// The server's process group (its own, led by it), which `deinit` ends whole.
    var processGroup: pid_t { identifier }

    /// Runs `arguments` (the first is looked up in `PATH`), which must write its port to the file
    /// named by the placeholder `{port-file}` among them; waits up to a minute for it.
    init(_ arguments: [String], environment extra: [String: String] = [:], log: String = "/dev/null") throws {
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("streakcal-port-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: portFile) }
        let argv = arguments.map { $0.replacingOccurrences(of: "{port-file}", with: portFile) }
        identifier = try Self.spawn(argv, environment: extra, log: log)
        // A Python server starts in well under a second; a loaded machine gets a minute.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8),
               let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                self.port = port
                return
            }
            var status: Int32 = 0
            if waitpid(identifier, &status, WNOHANG) == identifier {
                throw TestServerError(reason: "\(argv[0]) ended before it served (see \(log))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Self.stop(identifier)
        throw TestServerError(reason: "\(argv[0]) did not start within a minute")
    }

    deinit {
        Self.stop(identifier)
    }

    private static func spawn(_ argv: [String], environment extra: [String: String], log: String) throws -> pid_t {
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Glibc's posix_spawn_file_actions_addclosefrom_np is not imported into Swift: a Python
        // step closes every inherited descriptor above standard error, then becomes the server.
        let closer = "import os, sys; os.closerange(3, os.sysconf('SC_OPEN_MAX')); os.execvp(sys.argv[1], sys.argv[1:])"
        let arguments = ["/usr/bin/env", "python3", "-c", closer] + argv
        let cArguments = arguments.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        // The test thread's signal mask is inherited through posix_spawn: with SIGTERM blocked
        // there (as on some of swift-testing's threads), the server never saw the SIGTERM of
        // `stop`, was killed 10 seconds later and left Radicale, its child, running. The server
        // starts with no signal blocked or ignored, in a process group of its own that `stop`
        // signals whole.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var identifier: pid_t = 0
        let result = posix_spawn(&identifier, "/usr/bin/env", &actions, &attributes, cArguments, cEnvironment)
        guard result == 0 else { throw TestServerError(reason: "cannot start \(argv[0]): \(String(cString: strerror(result)))") }
        return identifier
    }

    /// SIGTERM to the server's process group, then SIGKILL to whatever of it is left if the server
    /// has not ended within 10 seconds; the server reaped either way.
    private static func stop(_ identifier: pid_t) {
        kill(-identifier, SIGTERM)
        var status: Int32 = 0
        defer { kill(-identifier, SIGKILL) }
        for _ in 0..<200 {
            if waitpid(identifier, &status, WNOHANG) != 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(-identifier, SIGKILL)
        _ = waitpid(identifier, &status, 0)
    }

    func url(_ path: String, host: String = "127.0.0.1") -> String {
        "http://\(host):\(port)\(path)"
    }
}

struct TestServerError: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
