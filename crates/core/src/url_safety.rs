//! URL safety analysis for URL-mode elicitations.
