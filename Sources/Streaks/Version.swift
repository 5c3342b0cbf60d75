/// StreakCal's version, from one place: `streakcal --version`, the `generator` key of every JSON
/// output and the PRODID of annotated calendars say it.
///
/// The version follows semantic versioning over the public Swift API, the command line (options
/// and exit statuses) and the JSON contracts (README, "Releases").
public enum StreakCalVersion {
    /// `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"

    /// What outputs name as their maker: `StreakCal 0.1.0`.
    public static var generator: String { "StreakCal \(current)" }
}
