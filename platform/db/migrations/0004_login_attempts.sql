CREATE TABLE "login_attempts" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"failures" integer NOT NULL,
	"last_attempt_at" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone,
	CONSTRAINT "login_attempts_kind_key_pk" PRIMARY KEY("kind","key"),
	CONSTRAINT "login_attempts_kind" CHECK ("login_attempts"."kind" in ('account', 'address'))
);
