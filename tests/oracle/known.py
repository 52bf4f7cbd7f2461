# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks expected to fail on today's main, each because of an item of issue
29 that is being fixed elsewhere. A disagreement of one of these is still
printed with its reproduction, as KNOWN, and does not fail the run (unless
--strict). When the fix of an item lands, delete its lines here: the check
then fails the oracle if the fix is incomplete. The oracle says when a
known check held in every combination it ran in."""

KNOWN = {
    # 2.6: lost events hidden: those the kernel dropped after the last event
    # it queued (a flood's end) are in no record's count, nor in the note
    "respond_lost_events_counted": "2.6",
    # Found by the oracle, not (yet) items of issue 29: reported to the lead
    # (the report of this branch), each its own id here.
    # o2: analyze --svg's persistence view draws a limit beyond its window
    # at the window's edge (limits.tmax 1350 us drawn at 1250 us)
    "svg_persistence_limit_markers": "o2",
}
