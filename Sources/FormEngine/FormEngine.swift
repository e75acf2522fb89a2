/// FormEngine: a submission from raw fields to a verdict. See `FormEngine`.
