/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scpi + scopedialect: each family picked from its *IDN?, its replies
 * parsed (invalid marks, headers, Keysight's groups), and the whole
 * exchange against a scripted instrument on a socket and on a pty. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include "instrument/scopedialect.h"
#include "instrument/scpi.h"

/* ---- parsers ---- */

static void a_value_is_read_with_or_without_a_header(void **state)
{
	double v = 0;

	(void)state;
	assert_int_equal(scopedialect_parse_value("5.000000e-04", &v), 1);
	assert_true(v == 5e-4);
	assert_int_equal(scopedialect_parse_value(":MEASUREMENT:MEAS1:RESULTS:ALLACQS:MAXIMUM 5.01E-4",
						  &v), 1);
	assert_true(v == 5.01e-4);
	assert_int_equal(scopedialect_parse_value("+4.2E+01\r", &v), 1);
	assert_true(v == 42);
}

static void invalid_marks_are_invalid_not_numbers(void **state)
{
	double v = 7;

	(void)state;
	assert_int_equal(scopedialect_parse_value("9.9e37", &v), 0);        /* Rigol */
	assert_int_equal(scopedialect_parse_value("9.9E+37", &v), 0);       /* Keysight */
	assert_int_equal(scopedialect_parse_value("9.91E37", &v), 0);       /* Tektronix */
	assert_int_equal(scopedialect_parse_value("****", &v), 0);          /* Siglent */
	assert_true(v == 7);
	assert_int_equal(scopedialect_parse_value("-113,\"Undefined header\"", &v), -1);
	assert_int_equal(scopedialect_parse_value("abc", &v), -1);
}

static void each_family_is_picked_from_its_idn(void **state)
{
	static const struct {
		const char *idn, *name;
	} cases[] = {
		{ "RIGOL TECHNOLOGIES,DS1054Z,DS1ZA1234,00.04.04.SP4", "rigol-ds1000z" },
		{ "RIGOL TECHNOLOGIES,MSO5074,MS5A2,00.01.03", "rigol-mso5000" },
		{ "RIGOL TECHNOLOGIES,DHO804,DHO8A,00.01.02", "rigol-mso5000" },
		{ "Siglent Technologies,SDS2104X Plus,SDS2P,1.3.9R6", "siglent-sds" },
		{ "KEYSIGHT TECHNOLOGIES,DSOX3024T,MY5,07.50", "keysight-infiniivision" },
		{ "AGILENT TECHNOLOGIES,MSO-X 3054A,MY5,02.41", "keysight-infiniivision" },
		{ "TEKTRONIX,MSO54,C012345,CF:91.1CT FV:1.28", "tektronix-mso456" },
		{ "TEKTRONIX,MSO64B,C0,CF:91.1CT FV:2.0", "tektronix-mso456" },
	};
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct scope_dialect *d = scopedialect_from_idn(cases[i].idn, err, sizeof(err));

		assert_non_null(d);
		assert_string_equal(scopedialect_name(d), cases[i].name);
	}
}

static void an_unknown_or_older_model_is_refused_with_the_reason(void **state)
{
	char err[256];

	(void)state;
	assert_null(scopedialect_from_idn("TEKTRONIX,MSO4104,C0,FV:v2.1", err, sizeof(err)));
	assert_non_null(strstr(err, "not a family"));
	assert_null(scopedialect_from_idn("Siglent Technologies,SDS1202X-E,SDS1", err, sizeof(err)));
	assert_non_null(strstr(err, "PAVA"));
	assert_null(scopedialect_from_idn("", err, sizeof(err)));
}

static void channels_are_analog_numbers(void **state)
{
	(void)state;
	assert_int_equal(scopedialect_channel_parse("1"), 1);
	assert_int_equal(scopedialect_channel_parse("CH2"), 2);
	assert_int_equal(scopedialect_channel_parse("C3"), 3);
	assert_int_equal(scopedialect_channel_parse("CHANnel4"), 4);
	assert_int_equal(scopedialect_channel_parse("D0"), -1);
	assert_int_equal(scopedialect_channel_parse("MATH1"), -1);
	assert_int_equal(scopedialect_channel_parse("0"), -1);
	assert_int_equal(scopedialect_channel_parse("9"), -1);
	assert_int_equal(scopedialect_channel_parse("1x"), -1);
}

static void keysight_groups_are_found_by_label_in_any_order(void **state)
{
	struct scope_reading r;
	char err[256];
	const char *reply = "- Width(1),+5.0E-04,+4.98E-04,+5.31E-04,+5.0E-04,+1E-06,+1234,"
			    "Freq(2),+1E+03,+1E+03,+1E+03,+1E+03,+0,+10,"
			    "+ Width(1),+5.0E-04,+4.90E-04,+5.12E-04,+5.0E-04,+1E-06,+1233";

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(scopedialect_parse_keysight(reply, 1, &r, err, sizeof(err)), 0);
	assert_true(r.stat[SCOPE_POS].valid && r.stat[SCOPE_NEG].valid);
	assert_true(r.stat[SCOPE_POS].min_s == 4.90e-4 && r.stat[SCOPE_POS].max_s == 5.12e-4);
	assert_true(r.stat[SCOPE_NEG].min_s == 4.98e-4 && r.stat[SCOPE_NEG].max_s == 5.31e-4);
	assert_int_equal(r.stat[SCOPE_POS].count, 1233);
	assert_int_equal(r.stat[SCOPE_NEG].count, 1234);
	/* the same groups for channel 2: no widths there */
	assert_int_equal(scopedialect_parse_keysight(reply, 2, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no + width of channel 2"));
}

static void keysight_invalid_statistics_are_said(void **state)
{
	struct scope_reading r;
	char err[256];
	const char *reply = "+ Width(1),9.9E+37,9.9E+37,9.9E+37,9.9E+37,9.9E+37,+0,"
			    "- Width(1),9.9E+37,9.9E+37,9.9E+37,9.9E+37,9.9E+37,+0";

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(scopedialect_parse_keysight(reply, 1, &r, err, sizeof(err)), 0);
	assert_false(r.stat[SCOPE_POS].valid);
	assert_non_null(strstr(r.stat[SCOPE_POS].why, "invalid"));
}

/* ---- a scripted instrument on a thread ---- */

struct fake {
	int fd;                       /* the instrument's end */
	const char *const *answers;   /* query, reply, query, reply, ..., NULL */
	char log[4096];               /* every line received, '\n'-separated */
	char errq[128];               /* its error queue, one entry */
};

static const char *answer(struct fake *f, const char *line)
{
	size_t i;

	for (i = 0; f->answers[i]; i += 2)
		if (!strcmp(f->answers[i], line))
			return f->answers[i + 1];
	if (!strcmp(line, "*OPC?"))
		return "1";
	if (!strcmp(line, ":SYSTem:ERRor?") || !strcmp(line, "ALLEv?")) {
		static char e[128];

		snprintf(e, sizeof(e), "%s", f->errq[0] ? f->errq : "0,\"No error\"");
		f->errq[0] = '\0';
		return e;
	}
	if (strchr(line, '?'))	/* an unknown query: no reply, an error queued */
		snprintf(f->errq, sizeof(f->errq), "-113,\"Undefined header\"");
	return NULL;
}

static void *fake_run(void *arg)
{
	struct fake *f = arg;
	char buf[1024];
	size_t n = 0;
	ssize_t r;

	while ((r = read(f->fd, buf + n, sizeof(buf) - n - 1)) > 0) {
		char *nl;

		n += (size_t)r;
		buf[n] = '\0';
		while ((nl = strchr(buf, '\n'))) {
			const char *a;

			*nl = '\0';
			strncat(f->log, buf, sizeof(f->log) - strlen(f->log) - 2);
			strcat(f->log, "\n");
			a = answer(f, buf);
			if (a) {
				char out[1100];
				int len = snprintf(out, sizeof(out), "%s\n", a);

				if (write(f->fd, out, (size_t)len) != len)
					return NULL;
			}
			n -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, n + 1);
		}
	}
	return NULL;
}

/* A listening socket on a free localhost port; its accept on a thread. */
struct server {
	int lfd;
	struct fake f;
	pthread_t th;
	char target[64];
};

static void *server_run(void *arg)
{
	struct server *s = arg;

	s->f.fd = accept(s->lfd, NULL, NULL);
	if (s->f.fd >= 0)
		fake_run(&s->f);
	return NULL;
}

static void server_start(struct server *s, const char *const *answers)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);

	memset(s, 0, sizeof(*s));
	s->f.answers = answers;
	s->lfd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(s->lfd >= 0);
	assert_int_equal(bind(s->lfd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(s->lfd, 1), 0);
	assert_int_equal(getsockname(s->lfd, (struct sockaddr *)&a, &len), 0);
	snprintf(s->target, sizeof(s->target), "127.0.0.1:%u", ntohs(a.sin_port));
	assert_int_equal(pthread_create(&s->th, NULL, server_run, s), 0);
}

static void server_stop(struct server *s)
{
	pthread_join(s->th, NULL);
	close(s->f.fd);
	close(s->lfd);
}

static const char *const rigol[] = {
	"*IDN?", "RIGOL TECHNOLOGIES,DS1054Z,DS1ZA1,00.04.04",
	":MEASure:STATistic:ITEM? MINimum,PWIDth,CHANnel2", "4.980000e-04",
	":MEASure:STATistic:ITEM? MAXimum,PWIDth,CHANnel2", "5.120000e-04",
	":MEASure:STATistic:ITEM? MINimum,NWIDth,CHANnel2", "9.9e37",
	":MEASure:STATistic:ITEM? MAXimum,NWIDth,CHANnel2", "9.9e37",
	NULL,
};

static void rigol_is_set_up_and_read_over_a_socket(void **state)
{
	struct server sv;
	struct scope_reading r;
	struct scpi *s;
	char err[512];

	(void)state;
	server_start(&sv, rigol);
	s = scpi_open(sv.target, 2000, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(scopedialect_identify(s, &r, err, sizeof(err)), 0);
	assert_int_equal(scopedialect_setup(s, &r, 2, err, sizeof(err)), 0);
	assert_int_equal(scopedialect_read(s, &r, 2, err, sizeof(err)), 0);
	scpi_close(s);
	server_stop(&sv);
	/* the setup went out in order, on the named channel, reset last */
	assert_non_null(strstr(sv.f.log, ":MEASure:STATistic:ITEM PWIDth,CHANnel2\n"
				     ":MEASure:STATistic:ITEM NWIDth,CHANnel2\n"
				     ":MEASure:STATistic:RESet\n*OPC?\n"));
	assert_true(r.stat[SCOPE_POS].valid);
	assert_true(r.stat[SCOPE_POS].min_s == 4.98e-4 && r.stat[SCOPE_POS].max_s == 5.12e-4);
	assert_false(r.stat[SCOPE_POS].count_known);
	assert_non_null(strstr(r.stat[SCOPE_POS].why, "no count"));
	assert_false(r.stat[SCOPE_NEG].valid);
}

static const char *const mso5000_without_cnt[] = {
	"*IDN?", "RIGOL TECHNOLOGIES,MSO5074,MS5A2,00.01.03",
	":MEASure:STATistic:ITEM? MINimum,PWIDth,CHANnel1", "4.980000e-04",
	":MEASure:STATistic:ITEM? MAXimum,PWIDth,CHANnel1", "5.120000e-04",
	":MEASure:STATistic:ITEM? MINimum,NWIDth,CHANnel1", "4.980000e-04",
	":MEASure:STATistic:ITEM? MAXimum,NWIDth,CHANnel1", "5.120000e-04",
	NULL,
};

static void a_count_the_model_lacks_is_unknown_and_says_the_instruments_error(void **state)
{
	struct server sv;
	struct scope_reading r;
	struct scpi *s;
	char err[512];

	(void)state;
	server_start(&sv, mso5000_without_cnt);
	s = scpi_open(sv.target, 300, err, sizeof(err));	/* CNT? never answers */
	assert_non_null(s);
	assert_int_equal(scopedialect_identify(s, &r, err, sizeof(err)), 0);
	assert_int_equal(scopedialect_read(s, &r, 1, err, sizeof(err)), 0);
	scpi_close(s);
	server_stop(&sv);
	assert_true(r.stat[SCOPE_POS].valid);
	assert_false(r.stat[SCOPE_POS].count_known);
	assert_non_null(strstr(r.stat[SCOPE_POS].why, "Undefined header"));
}

static const char *const siglent_other_slot[] = {
	"*IDN?", "Siglent Technologies,SDS2104X Plus,SDS2P,1.3.9R6",
	":MEASure:ADVanced:P1:TYPE?", "FREQ",
	NULL,
};

static void a_slot_holding_another_measurement_is_refused(void **state)
{
	struct server sv;
	struct scope_reading r;
	struct scpi *s;
	char err[512];

	(void)state;
	server_start(&sv, siglent_other_slot);
	s = scpi_open(sv.target, 2000, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(scopedialect_identify(s, &r, err, sizeof(err)), 0);
	assert_int_equal(scopedialect_read(s, &r, 1, err, sizeof(err)), -1);
	scpi_close(s);
	server_stop(&sv);
	assert_non_null(strstr(err, "'FREQ', not PWID"));
}

static const char *const tek_refuses[] = {
	"*IDN?", "TEKTRONIX,MSO54,C012345,CF:91.1CT FV:1.28",
	"*OPC?", "1",
	NULL,
};

static void an_error_the_instrument_queues_fails_the_setup(void **state)
{
	struct server sv;
	struct scope_reading r;
	struct scpi *s;
	char err[512];

	(void)state;
	server_start(&sv, tek_refuses);
	s = scpi_open(sv.target, 2000, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(scopedialect_identify(s, &r, err, sizeof(err)), 0);
	snprintf(sv.f.errq, sizeof(sv.f.errq), "-221,\"Settings conflict\"");
	assert_int_equal(scopedialect_setup(s, &r, 1, err, sizeof(err)), -1);
	scpi_close(s);
	server_stop(&sv);
	assert_non_null(strstr(err, "Settings conflict"));
	assert_non_null(strstr(sv.f.log, "MEASUrement:MEAS2:SOUrce1 CH1\nCLEar\n"));
}

static void nobody_listening_is_a_sentence(void **state)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	char err[512], target[64];
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	(void)state;
	/* a port just freed: nothing listens there */
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	snprintf(target, sizeof(target), "127.0.0.1:%u", ntohs(a.sin_port));
	close(fd);
	assert_null(scpi_open(target, 2000, err, sizeof(err)));
	assert_non_null(strstr(err, "cannot connect"));
	assert_null(scpi_open("host:port", 2000, err, sizeof(err)));
	assert_non_null(strstr(err, "expected HOST[:PORT]"));
	assert_null(scpi_open("/nonexistent/usbtmc0", 2000, err, sizeof(err)));
	assert_non_null(strstr(err, "/nonexistent/usbtmc0"));
}

static const char *const keysight[] = {
	"*IDN?", "KEYSIGHT TECHNOLOGIES,DSOX3024T,MY5,07.50",
	":MEASure:RESults?", "+ Width(1),+5E-04,+4.9E-04,+5.1E-04,+5E-04,+1E-06,+100,"
			     "- Width(1),+5E-04,+4.8E-04,+5.2E-04,+5E-04,+1E-06,+101",
	NULL,
};

/* The pty stands in for /dev/usbtmc0: a file, one line each way. */
static void keysight_is_read_over_a_device_file(void **state)
{
	struct fake f;
	struct scope_reading r;
	struct termios t;
	struct scpi *s;
	pthread_t th;
	char err[512], name[256];
	int master, slave;

	(void)state;
	assert_int_equal(openpty(&master, &slave, name, NULL, NULL), 0);
	assert_int_equal(tcgetattr(slave, &t), 0);
	cfmakeraw(&t);
	assert_int_equal(tcsetattr(slave, TCSANOW, &t), 0);
	memset(&f, 0, sizeof(f));
	f.fd = master;
	f.answers = keysight;
	assert_int_equal(pthread_create(&th, NULL, fake_run, &f), 0);
	s = scpi_open(name, 2000, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(scopedialect_identify(s, &r, err, sizeof(err)), 0);
	assert_int_equal(scopedialect_read(s, &r, 1, err, sizeof(err)), 0);
	scpi_close(s);
	close(slave);
	close(master);	/* ends the thread's read */
	pthread_join(th, NULL);
	assert_int_equal(r.stat[SCOPE_POS].count, 100);
	assert_int_equal(r.stat[SCOPE_NEG].count, 101);
	assert_true(r.stat[SCOPE_NEG].max_s == 5.2e-4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_value_is_read_with_or_without_a_header),
		cmocka_unit_test(invalid_marks_are_invalid_not_numbers),
		cmocka_unit_test(each_family_is_picked_from_its_idn),
		cmocka_unit_test(an_unknown_or_older_model_is_refused_with_the_reason),
		cmocka_unit_test(channels_are_analog_numbers),
		cmocka_unit_test(keysight_groups_are_found_by_label_in_any_order),
		cmocka_unit_test(keysight_invalid_statistics_are_said),
		cmocka_unit_test(rigol_is_set_up_and_read_over_a_socket),
		cmocka_unit_test(a_count_the_model_lacks_is_unknown_and_says_the_instruments_error),
		cmocka_unit_test(a_slot_holding_another_measurement_is_refused),
		cmocka_unit_test(an_error_the_instrument_queues_fails_the_setup),
		cmocka_unit_test(nobody_listening_is_a_sentence),
		cmocka_unit_test(keysight_is_read_over_a_device_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
