"""The ledger's pages, a module per page family: events, the live table, hands, guests,
results over time, workbooks and imports. Views use forms, services and selectors; never
each other."""
