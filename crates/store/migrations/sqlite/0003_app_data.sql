-- The application's own data of a pending elicitation (`PendingElicitation::app_data`),
-- as JSON text; NULL when the application attached none (and for rows stored before).
ALTER TABLE elicitations ADD COLUMN app_data TEXT;
