// The days, weekdays and wall-clock times this module's API shows.
@_exported public import CalendarDays
