"""What leaves and enters the site as files: the settlement workbook (``exports``), scoresheets
imported from a spreadsheet (``imports``), a guest's receipt as a PDF (``pdf``)."""
