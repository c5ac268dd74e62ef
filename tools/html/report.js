/* report.js - placeholder */
