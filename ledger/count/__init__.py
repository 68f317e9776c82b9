"""The count: chips each guest took and handed back, the house's tray, the reconciliation of the
chips against the logged hands (``reconciliation``, plain Python), adjustments that book a
difference into a guest's result, and nights kept by their count alone."""
