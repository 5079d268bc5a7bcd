-- exam_grading: created by Flyway (quarkus.flyway.schemas); tables follow in later migrations.
SELECT 1;
