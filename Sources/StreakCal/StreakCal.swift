// The umbrella module: `import StreakCal` gives the whole toolkit.
@_exported import CalendarDiagnostics
@_exported import CalendarLayout
@_exported import ICalendar
@_exported import StreakExport
@_exported import Streaks
