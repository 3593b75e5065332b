// The admin works without this script; it only adds conveniences on top of the server-rendered forms.
