# ruff: noqa: E501
"""The Java ``mqadmin help CMD`` output of every command (recorded from the real tools).

5.3.3 is the reference; commands that only 4.9.8 has carry the 4.9.8 text.
"""

REFERENCE: dict[str, str] = {
    "addBroker": (
        "usage: mqadmin addBroker -b <arg> -c <arg> [-h] [-n <arg>]\n"
        " -b,--brokerConfigPath <arg>      Broker config path\n"
        " -c,--brokerContainerAddr <arg>   Broker container address\n"
        " -h,--help                        Print help\n"
        " -n,--namesrvAddr <arg>           Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "addWritePerm": (
        "usage: mqadmin addWritePerm -b <arg> [-h] [-n <arg>]\n"
        " -b,--brokerName <arg>    broker name\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "allocateMQ": (
        "usage: mqadmin allocateMQ [-h] -i <arg> [-n <arg>] -t <arg>\n"
        " -h,--help                Print help\n"
        " -i,--ipList <arg>        ipList\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "brokerConsumeStats": (
        "usage: mqadmin brokerConsumeStats -b <arg> [-h] [-l <arg>] [-n <arg>] [-o <arg>] [-t <arg>]\n"
        " -b,--brokerAddr <arg>      Broker address\n"
        " -h,--help                  Print help\n"
        " -l,--level <arg>           threshold of print diff\n"
        " -n,--namesrvAddr <arg>     Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -o,--order <arg>           order topic\n"
        " -t,--timeoutMillis <arg>   request timeout Millis\n"
    ),
    "brokerStatus": (
        "usage: mqadmin brokerStatus -b <arg> | -c <arg>  [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    Broker address\n"
        " -c,--clusterName <arg>   which cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "checkMsgSendRT": (
        "usage: mqadmin checkMsgSendRT [-a <arg>] [-h] [-n <arg>] [-s <arg>] -t <arg>\n"
        " -a,--amount <arg>        message amount | default 100\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -s,--size <arg>          message size | default 128 Byte\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "checkRocksdbCqWriteProgress": (
        "usage: mqadmin checkRocksdbCqWriteProgress -c <arg> [-cf <arg>] [-h] -n <arg> [-t <arg>]\n"
        " -c,--cluster <arg>          cluster name\n"
        " -cf,--checkFrom <arg>       check from time\n"
        " -h,--help                   Print help\n"
        " -n,--nameserverAddr <arg>   nameserverAddr\n"
        " -t,--topic <arg>            topic name\n"
    ),
    "cleanBrokerMetadata": (
        "usage: mqadmin cleanBrokerMetadata -a <arg> [-b <arg>] -bn <arg> [-c <arg>] [-h] [-l] [-n <arg>]\n"
        " -a,--controllerAddress <arg>            The address of controller\n"
        " -b,--brokerControllerIdsToClean <arg>   The brokerController id list which requires to clean metadata. eg:\n"
        "                                         1;2;3, means that clean broker-1, broker-2 and broker-3\n"
        " -bn,--brokerName <arg>                  The broker name of the replicas that require to be manipulated\n"
        " -c,--clusterName <arg>                  The clusterName of broker\n"
        " -h,--help                               Print help\n"
        " -l,--cleanLivingBroker                  Whether clean up living brokers,default value is false\n"
        " -n,--namesrvAddr <arg>                  Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "cleanExpiredCQ": (
        "usage: mqadmin cleanExpiredCQ [-b <arg>] [-c <arg>] [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    Broker address\n"
        " -c,--cluster <arg>       clustername\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "cleanUnusedTopic": (
        "usage: mqadmin cleanUnusedTopic [-b <arg>] [-c <arg>] [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    Broker address\n"
        " -c,--cluster <arg>       cluster name\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "cloneGroupOffset": (
        "usage: mqadmin cloneGroupOffset -d <arg> [-h] [-n <arg>] [-o <arg>] -s <arg> -t <arg>\n"
        " -d,--destGroup <arg>     set destination consumer group\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -o,--offline <arg>       the group or the topic is offline\n"
        " -s,--srcGroup <arg>      set source consumer group\n"
        " -t,--topic <arg>         set the topic\n"
    ),
    "clusterAclConfigVersion": (
        "usage: mqadmin clusterAclConfigVersion -b <arg> | -c <arg>  [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    query acl config version for which broker\n"
        " -c,--clusterName <arg>   query acl config version for specified cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "clusterList": (
        "usage: mqadmin clusterList [-c <arg>] [-h] [-i <arg>] [-m] [-n <arg>]\n"
        " -c,--clusterName <arg>   which cluster\n"
        " -h,--help                Print help\n"
        " -i,--interval <arg>      specify intervals numbers, it is in seconds\n"
        " -m,--moreStats           Print more stats\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "clusterRT": (
        "usage: mqadmin clusterRT [-a <arg>] [-c <arg>] [-h] [-i <arg>] [-m <arg>] [-n <arg>] [-p <arg>] [-s <arg>]\n"
        " -a,--amount <arg>         message amount | default 100\n"
        " -c,--cluster <arg>        cluster name | default display all cluster\n"
        " -h,--help                 Print help\n"
        " -i,--interval <arg>       print interval | default 10 seconds\n"
        " -m,--machine room <arg>   machine room name | default noname\n"
        " -n,--namesrvAddr <arg>    Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -p,--print log <arg>      print as tlog | default false\n"
        " -s,--size <arg>           message size | default 128 Byte\n"
    ),
    "consumeMessage": (
        "usage: mqadmin consumeMessage [-b <arg>] [-c <arg>] [-e <arg>] [-g <arg>] [-h] [-i <arg>] [-n <arg>] [-o\n"
        "       <arg>] [-s <arg>] -t <arg>\n"
        " -b,--brokerName <arg>        Broker name\n"
        " -c,--MessageNumber <arg>     Number of message to be consumed\n"
        " -e,--endTimestamp  <arg>     End timestamp[currentTimeMillis|yyyy-MM-dd#HH:mm:ss:SSS]\n"
        " -g,--consumerGroup <arg>     Consumer group name\n"
        " -h,--help                    Print help\n"
        " -i,--queueId <arg>           Queue Id\n"
        " -n,--namesrvAddr <arg>       Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -o,--offset <arg>            Queue offset\n"
        " -s,--beginTimestamp  <arg>   Begin timestamp[currentTimeMillis|yyyy-MM-dd#HH:mm:ss:SSS]\n"
        " -t,--topic <arg>             Topic name\n"
    ),
    "consumerConnection": (
        "usage: mqadmin consumerConnection [-b <arg>] -g <arg> [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>      broker address\n"
        " -g,--consumerGroup <arg>   consumer group name\n"
        " -h,--help                  Print help\n"
        " -n,--namesrvAddr <arg>     Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "consumerProgress": (
        "usage: mqadmin consumerProgress [-c <arg>] [-g <arg>] [-h] [-n <arg>] [-s <arg>] [-t <arg>]\n"
        " -c,--cluster <arg>        Cluster name or lmq parent topic, lmq is used to find the route.\n"
        " -g,--groupName <arg>      consumer group name\n"
        " -h,--help                 Print help\n"
        " -n,--namesrvAddr <arg>    Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -s,--showClientIP <arg>   Show Client IP per Queue\n"
        " -t,--topicName <arg>      topic name\n"
    ),
    "consumerStatus": (
        "usage: mqadmin consumerStatus [-b <arg>] -g <arg> [-h] [-i <arg>] [-n <arg>] [-s]\n"
        " -b,--brokerAddr <arg>      broker address\n"
        " -g,--consumerGroup <arg>   consumer group name\n"
        " -h,--help                  Print help\n"
        " -i,--clientId <arg>        The consumer's client id\n"
        " -n,--namesrvAddr <arg>     Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -s,--jstack                Run jstack command in the consumer progress\n"
    ),
    "copyAcl": (
        "usage: mqadmin copyAcl -f <arg> [-h] [-n <arg>] [-s <arg>] -t <arg>\n"
        " -f,--fromBroker <arg>    the source broker that the acls copy from\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -s,--subjects <arg>      the subject list of acl to copy.\n"
        " -t,--toBroker <arg>      the target broker that the acls copy to\n"
    ),
    "copyUser": (
        "usage: mqadmin copyUser -f <arg> [-h] [-n <arg>] -t <arg> [-u <arg>]\n"
        " -f,--fromBroker <arg>    the source broker that the users copy from\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--toBroker <arg>      the target broker that the users copy to\n"
        " -u,--usernames <arg>     the username list of user to copy.\n"
    ),
    "createAcl": (
        "usage: mqadmin createAcl -a <arg> -b <arg> | -c <arg>  -d <arg> [-h] [-i <arg>] [-n <arg>] -r <arg> -s <arg>\n"
        " -a,--actions <arg>       the actions of acl to create\n"
        " -b,--brokerAddr <arg>    create acl to which broker\n"
        " -c,--clusterName <arg>   create acl to which cluster\n"
        " -d,--decision <arg>      the decision of acl to create\n"
        " -h,--help                Print help\n"
        " -i,--sourceIp <arg>      the sourceIps of acl to create\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -r,--resources <arg>     the resources of acl to create\n"
        " -s,--subject <arg>       the subject of acl to create.\n"
    ),
    "createUser": (
        "usage: mqadmin createUser -b <arg> | -c <arg>  [-h] [-n <arg>] -p <arg> [-t <arg>] -u <arg>\n"
        " -b,--brokerAddr <arg>    create user to which broker\n"
        " -c,--clusterName <arg>   create user to which cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -p,--password <arg>      the password of user to create\n"
        " -t,--userType <arg>      the userType of user to create\n"
        " -u,--username <arg>      the username of user to create.\n"
    ),
    "deleteAcl": (
        "usage: mqadmin deleteAcl -b <arg> | -c <arg>  [-h] [-n <arg>] [-r <arg>] -s <arg>\n"
        " -b,--brokerAddr <arg>    delete acl from which broker\n"
        " -c,--clusterName <arg>   delete acl from which cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -r,--resources <arg>     the resources of acl to delete\n"
        " -s,--subject <arg>       the subject of acl to delete.\n"
    ),
    "deleteAclConfig": (
        "usage: mqadmin deleteAclConfig -a <arg> -b <arg> | -c <arg>  [-h] [-n <arg>]\n"
        " -a,--accessKey <arg>     set accessKey in acl config file for deleting which account\n"
        " -b,--brokerAddr <arg>    delete acl config account from which broker\n"
        " -c,--clusterName <arg>   delete acl config account from which cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "deleteExpiredCommitLog": (
        "usage: mqadmin deleteExpiredCommitLog [-b <arg>] [-c <arg>] [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    Broker address\n"
        " -c,--cluster <arg>       clustername\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address\n"
    ),
    "deleteKvConfig": (
        "usage: mqadmin deleteKvConfig [-h] -k <arg> [-n <arg>] -s <arg>\n"
        " -h,--help                Print help\n"
        " -k,--key <arg>           set the key name\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -s,--namespace <arg>     set the namespace\n"
    ),
    "deleteSubGroup": (
        "usage: mqadmin deleteSubGroup [-b <arg>] [-c <arg>] -g <arg> [-h] [-n <arg>] [-r <arg>]\n"
        " -b,--brokerAddr <arg>     delete subscription group from which broker\n"
        " -c,--clusterName <arg>    delete subscription group from which cluster\n"
        " -g,--groupName <arg>      subscription group name\n"
        " -h,--help                 Print help\n"
        " -n,--namesrvAddr <arg>    Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -r,--removeOffset <arg>   remove offset\n"
    ),
    "deleteTopic": (
        "usage: mqadmin deleteTopic -c <arg> [-h] [-n <arg>] -t <arg>\n"
        " -c,--clusterName <arg>   delete topic from which cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "deleteUser": (
        "usage: mqadmin deleteUser -b <arg> | -c <arg>  [-h] [-n <arg>] -u <arg>\n"
        " -b,--brokerAddr <arg>    delete user from which broker\n"
        " -c,--clusterName <arg>   delete acl from which cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -u,--username <arg>      the username of user to delete.\n"
    ),
    "dumpCompactionLog": (
        "usage: mqadmin dumpCompactionLog [-f <arg>] [-h] [-n <arg>]\n"
        " -f,--file <arg>          to dump file name\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "electMaster": (
        "usage: mqadmin electMaster -a <arg> -b <arg> -bn <arg> -c <arg> [-h] [-n <arg>]\n"
        " -a,--controllerAddress <arg>   The address of controller\n"
        " -b,--brokerId <arg>            The id of the broker which requires to become master\n"
        " -bn,--brokerName <arg>         The broker name of the replicas that require to be manipulated\n"
        " -c,--clusterName <arg>         the clusterName of broker\n"
        " -h,--help                      Print help\n"
        " -n,--namesrvAddr <arg>         Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "exportConfigs": (
        "usage: mqadmin exportConfigs -c <arg> [-f <arg>] [-h] [-n <arg>]\n"
        " -c,--clusterName <arg>   choose a cluster to export\n"
        " -f,--filePath <arg>      export configs.json path | default /tmp/rocketmq/export\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "exportMetadata": (
        "usage: mqadmin exportMetadata [-b <arg>] [-c <arg>] [-f <arg>] [-g] [-h] [-n <arg>] [-s] [-t]\n"
        " -b,--brokerAddr <arg>    choose a broker to export\n"
        " -c,--clusterName <arg>   choose a cluster to export\n"
        " -f,--filePath <arg>      export metadata.json path | default /tmp/rocketmq/export\n"
        " -g,--subscriptionGroup   only export subscriptionGroup metadata\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -s,--specialTopic        need retryTopic and dlqTopic\n"
        " -t,--topic               only export topic metadata\n"
    ),
    "exportMetadataInRocksDB": (
        "usage: mqadmin exportMetadataInRocksDB [-h] [-j <arg>] [-n <arg>] -p <arg> -t <arg>\n"
        " -h,--help                Print help\n"
        " -j,--jsonEnable <arg>    Json format enable, Default: false\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -p,--path <arg>          Absolute path for the metadata directory\n"
        " -t,--configType <arg>    Name of kv config, e.g. topics/subscriptionGroups\n"
    ),
    "exportMetrics": (
        "usage: mqadmin exportMetrics -c <arg> [-f <arg>] [-h] [-n <arg>]\n"
        " -c,--clusterName <arg>   choose a cluster to export\n"
        " -f,--filePath <arg>      export metrics.json path | default /tmp/rocketmq/export\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "exportPopRecord": (
        "usage: mqadmin exportPopRecord [-b <arg>] [-c <arg>] [-d <arg>] [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    choose one broker to export\n"
        " -c,--clusterName <arg>   choose one cluster to export\n"
        " -d,--dryRun <arg>        no actual changes will be made\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "getAcl": (
        "usage: mqadmin getAcl -b <arg> | -c <arg>  [-h] [-n <arg>] [-s <arg>]\n"
        " -b,--brokerAddr <arg>    get acl for which broker\n"
        " -c,--clusterName <arg>   get acl for specified cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -s,--subject <arg>       the subject of acl to get\n"
    ),
    "getBrokerConfig": (
        "usage: mqadmin getBrokerConfig [-b <arg>] [-c <arg>] [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    get which broker\n"
        " -c,--clusterName <arg>   get which cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "getBrokerEpoch": (
        "usage: mqadmin getBrokerEpoch [-b <arg>] [-c <arg>] [-h] [-i <arg>] [-n <arg>]\n"
        " -b,--brokerName <arg>    which broker to fetch\n"
        " -c,--clusterName <arg>   which cluster\n"
        " -h,--help                Print help\n"
        " -i,--interval <arg>      the interval(second) of get info\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "getColdDataFlowCtrInfo": (
        "usage: mqadmin getColdDataFlowCtrInfo [-b <arg>] [-c <arg>] [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    get from which broker\n"
        " -c,--clusterName <arg>   get from which cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "getConsumerConfig": (
        "usage: mqadmin getConsumerConfig -g <arg> [-h] [-n <arg>]\n"
        " -g,--groupName <arg>     subscription group name\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "getControllerConfig": (
        "usage: mqadmin getControllerConfig -a <arg> [-h] [-n <arg>]\n"
        " -a,--controllerAddress <arg>   Controller address list, eg: 192.168.0.1:9878;192.168.0.2:9878\n"
        " -h,--help                      Print help\n"
        " -n,--namesrvAddr <arg>         Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "getControllerMetaData": (
        "usage: mqadmin getControllerMetaData -a <arg> [-h] [-n <arg>]\n"
        " -a,--controllerAddress <arg>   the address of controller\n"
        " -h,--help                      Print help\n"
        " -n,--namesrvAddr <arg>         Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "getNamesrvConfig": (
        "usage: mqadmin getNamesrvConfig [-h] [-n <arg>]\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "getSyncStateSet": (
        "usage: mqadmin getSyncStateSet -a <arg> [-b <arg>] [-c <arg>] [-h] [-i <arg>] [-n <arg>]\n"
        " -a,--controllerAddress <arg>   the address of controller\n"
        " -b,--brokerName <arg>          which broker to fetch\n"
        " -c,--clusterName <arg>         which cluster\n"
        " -h,--help                      Print help\n"
        " -i,--interval <arg>            the interval(second) of get info\n"
        " -n,--namesrvAddr <arg>         Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "getUser": (
        "usage: mqadmin getUser -b <arg> | -c <arg>  [-h] [-n <arg>] [-u <arg>]\n"
        " -b,--brokerAddr <arg>    get user for which broker\n"
        " -c,--clusterName <arg>   get user for specified cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -u,--username <arg>      the username of user to get\n"
    ),
    "haStatus": (
        "usage: mqadmin haStatus [-b <arg>] [-c <arg>] [-h] [-i <arg>] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    which broker to fetch\n"
        " -c,--clusterName <arg>   which cluster\n"
        " -h,--help                Print help\n"
        " -i,--interval <arg>      the interval(second) of get info\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "listAcl": (
        "usage: mqadmin listAcl -b <arg> | -c <arg>  [-h] [-n <arg>] [-r <arg>] [-s <arg>]\n"
        " -b,--brokerAddr <arg>    list acl for which broker.\n"
        " -c,--clusterName <arg>   list acl for specified cluster.\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -r,--resource <arg>      the resource of acl to filter.\n"
        " -s,--subject <arg>       the subject of acl to filter.\n"
    ),
    "listUser": (
        "usage: mqadmin listUser -b <arg> | -c <arg>  [-f <arg>] [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    list user for which broker\n"
        " -c,--clusterName <arg>   list user for specified cluster\n"
        " -f,--filter <arg>        the filter to list users\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "printMsg": (
        "usage: mqadmin printMsg [-b <arg>] [-c <arg>] [-d <arg>] [-e <arg>] [-h] [-l <arg>] [-n <arg>] [-s <arg>] -t\n"
        "       <arg>\n"
        " -b,--beginTimestamp  <arg>   Begin timestamp[currentTimeMillis|yyyy-MM-dd#HH:mm:ss:SSS]\n"
        " -c,--charsetName  <arg>      CharsetName(eg: UTF-8,GBK)\n"
        " -d,--printBody  <arg>        print body\n"
        " -e,--endTimestamp  <arg>     End timestamp[currentTimeMillis|yyyy-MM-dd#HH:mm:ss:SSS]\n"
        " -h,--help                    Print help\n"
        " -l,--lmqParentTopic <arg>    Lmq parent topic, lmq is used to find the route.\n"
        " -n,--namesrvAddr <arg>       Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -s,--subExpression  <arg>    Subscribe Expression(eg: TagA || TagB)\n"
        " -t,--topic <arg>             topic name\n"
    ),
    "printMsgByQueue": (
        "usage: mqadmin printMsgByQueue -a <arg> [-b <arg>] [-c <arg>] [-d <arg>] [-e <arg>] [-f <arg>] [-h] -i <arg>\n"
        "       [-n <arg>] [-p <arg>] [-s <arg>] -t <arg>\n"
        " -a,--brokerName  <arg>       broker name\n"
        " -b,--beginTimestamp  <arg>   Begin timestamp[currentTimeMillis|yyyy-MM-dd#HH:mm:ss:SSS]\n"
        " -c,--charsetName  <arg>      CharsetName(eg: UTF-8,GBK)\n"
        " -d,--printBody  <arg>        print body. eg: true | false(default)\n"
        " -e,--endTimestamp  <arg>     End timestamp[currentTimeMillis|yyyy-MM-dd#HH:mm:ss:SSS]\n"
        " -f,--calculate <arg>         calculate by tag. eg: true | false(default)\n"
        " -h,--help                    Print help\n"
        " -i,--queueId  <arg>          queue id\n"
        " -n,--namesrvAddr <arg>       Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -p,--print msg <arg>         print msg. eg: true | false(default)\n"
        " -s,--subExpression  <arg>    Subscribe Expression(eg: TagA || TagB)\n"
        " -t,--topic <arg>             topic name\n"
    ),
    "producer": (
        "usage: mqadmin producer -b <arg> [-h] [-n <arg>]\n"
        " -b,--broker <arg>        broker address\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "producerConnection": (
        "usage: mqadmin producerConnection -g <arg> [-h] [-n <arg>] -t <arg>\n"
        " -g,--producerGroup <arg>   producer group name\n"
        " -h,--help                  Print help\n"
        " -n,--namesrvAddr <arg>     Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>           topic name\n"
    ),
    "queryCq": (
        "usage: mqadmin queryCq [-b <arg>] [-c <arg>] [-g <arg>] [-h] -i <arg> [-n <arg>] -q <arg> -t <arg>\n"
        " -b,--broker <arg>        broker addr.\n"
        " -c,--count <arg>         how many.\n"
        " -g,--consumer <arg>      consumer group.\n"
        " -h,--help                Print help\n"
        " -i,--index <arg>         start queue index.\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -q,--queue <arg>         queue num, ie. 1\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "queryMsgById": (
        "usage: mqadmin queryMsgById [-c <arg>] [-d <arg>] [-f <arg>] [-g <arg>] [-h] -i <arg> [-n <arg>] [-s <arg>] -t\n"
        "       <arg> [-u <arg>]\n"
        " -c,--cluster <arg>         Cluster name or lmq parent topic, lmq is used to find the route.\n"
        " -d,--clientId <arg>        The consumer's client id\n"
        " -f,--bodyFormat <arg>      print message body by the specified format\n"
        " -g,--consumerGroup <arg>   consumer group name\n"
        " -h,--help                  Print help\n"
        " -i,--msgId <arg>           Message Id\n"
        " -n,--namesrvAddr <arg>     Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -s,--sendMessage <arg>     resend message\n"
        " -t,--topic <arg>           topic name\n"
        " -u,--unitName <arg>        unit name\n"
    ),
    "queryMsgByKey": (
        "usage: mqadmin queryMsgByKey [-b <arg>] [-c <arg>] [-e <arg>] [-h] -k <arg> [-m <arg>] [-n <arg>] -t <arg>\n"
        " -b,--beginTimestamp <arg>   Begin timestamp(ms). default:0, eg:1676730526212\n"
        " -c,--cluster <arg>          Cluster name or lmq parent topic, lmq is used to find the route.\n"
        " -e,--endTimestamp <arg>     End timestamp(ms). default:Long.MAX_VALUE, eg:1676730526212\n"
        " -h,--help                   Print help\n"
        " -k,--msgKey <arg>           Message Key\n"
        " -m,--maxNum <arg>           The maximum number of messages returned by the query, default:64\n"
        " -n,--namesrvAddr <arg>      Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>            Topic name\n"
    ),
    "queryMsgByOffset": (
        "usage: mqadmin queryMsgByOffset -b <arg> [-f <arg>] [-h] -i <arg> [-n <arg>] -o <arg> -t <arg>\n"
        " -b,--brokerName <arg>    Broker Name\n"
        " -f,--bodyFormat <arg>    print message body by the specified format\n"
        " -h,--help                Print help\n"
        " -i,--queueId <arg>       Queue Id\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -o,--offset <arg>        Queue Offset\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "queryMsgByUniqueKey": (
        "usage: mqadmin queryMsgByUniqueKey [-a] [-c <arg>] [-d <arg>] [-g <arg>] [-h] -i <arg> [-n <arg>] -t <arg>\n"
        " -a,--showAll               Print all message, the limit is 32\n"
        " -c,--cluster <arg>         Cluster name or lmq parent topic, lmq is used to find the route.\n"
        " -d,--clientId <arg>        The consumer's client id\n"
        " -g,--consumerGroup <arg>   consumer group name\n"
        " -h,--help                  Print help\n"
        " -i,--msgId <arg>           Message Id\n"
        " -n,--namesrvAddr <arg>     Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>           The topic of msg\n"
    ),
    "queryMsgTraceById": (
        "usage: mqadmin queryMsgTraceById [-b <arg>] [-c <arg>] [-e <arg>] [-h] -i <arg> [-n <arg>] [-t <arg>]\n"
        " -b,--beginTimestamp <arg>   Begin timestamp(ms). default:0, eg:1676730526212\n"
        " -c,--maxNum <arg>           The maximum number of messages returned by the query, default:64\n"
        " -e,--endTimestamp <arg>     End timestamp(ms). default:Long.MAX_VALUE, eg:1676730526212\n"
        " -h,--help                   Print help\n"
        " -i,--msgId <arg>            Message Id\n"
        " -n,--namesrvAddr <arg>      Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--traceTopic <arg>       The name value of message trace topic\n"
    ),
    "remappingStaticTopic": (
        "usage: mqadmin remappingStaticTopic -b <arg> | -c <arg>  [-fr <arg>] [-h] [-mf <arg>] [-n <arg>] -t <arg>\n"
        " -b,--brokers <arg>         remapping static topic to brokers, comma separated\n"
        " -c,--clusters <arg>        remapping static topic to clusters, comma separated\n"
        " -fr,--forceReplace <arg>   Force replace the old mapping\n"
        " -h,--help                  Print help\n"
        " -mf,--mapFile <arg>        The mapping data file name\n"
        " -n,--namesrvAddr <arg>     Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>           topic name\n"
    ),
    "removeBroker": (
        "usage: mqadmin removeBroker -b <arg> -c <arg> [-h] [-n <arg>]\n"
        " -b,--brokerIdentity <arg>        Information to identify a broker: clusterName:brokerName:brokerId(dLedgerId\n"
        "                                  for dLedger)\n"
        " -c,--brokerContainerAddr <arg>   Broker container address\n"
        " -h,--help                        Print help\n"
        " -n,--namesrvAddr <arg>           Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "removeColdDataFlowCtrGroupConfig": (
        "usage: mqadmin removeColdDataFlowCtrGroupConfig [-b <arg>] [-c <arg>] -g <arg> [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>      update which broker\n"
        " -c,--clusterName <arg>     update which cluster\n"
        " -g,--consumerGroup <arg>   the consumer group will remove from the config\n"
        " -h,--help                  Print help\n"
        " -n,--namesrvAddr <arg>     Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "resetMasterFlushOffset": (
        "usage: mqadmin resetMasterFlushOffset [-b <arg>] [-h] [-n <arg>] [-o <arg>]\n"
        " -b,--brokerAddr <arg>    which broker to reset\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -o,--offset <arg>        the offset to reset at\n"
    ),
    "resetOffsetByTime": (
        "usage: mqadmin resetOffsetByTime [-b <arg>] [-c <arg>] [-f <arg>] -g <arg> [-h] [-n <arg>] [-o <arg>] [-q\n"
        "       <arg>] -s <arg> -t <arg>\n"
        " -b,--broker <arg>        broker addr\n"
        " -c,--cluster <arg>       Cluster name or lmq parent topic, lmq is used to find the route.\n"
        " -f,--force <arg>         set the force rollback by timestamp switch[true|false]. Deprecated.\n"
        " -g,--group <arg>         set the consumer group\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -o,--offset <arg>        Expect queue offset, not support old version broker\n"
        " -q,--queue <arg>         queue id\n"
        " -s,--timestamp <arg>     set the timestamp[now|currentTimeMillis|yyyy-MM-dd#HH:mm:ss:SSS]\n"
        " -t,--topic <arg>         set the topic\n"
    ),
    "rocksDBConfigToJson": (
        "usage: mqadmin rocksDBConfigToJson [-b <arg>] [-c <arg>] [-e <arg>] [-h] [-j <arg>] [-n <arg>] [-p <arg>] [-t\n"
        "       <arg>]\n"
        " -b,--brokerAddr <arg>       [rpc mode] Broker address. If brokerAddr is provided, will ignore [-p, -e, -j]\n"
        "                             args\n"
        " -c,--cluster <arg>          [rpc mode] Cluster name. If nameserverAddr and clusterName are provided, will\n"
        "                             ignore [-p, -e, -j, -b] args\n"
        " -e,--exportFile <arg>       [local mode] Absolute file path for exporting, auto backup existing file, not\n"
        "                             directory. If exportFile is provided, will export Json file and ignore [-j].\n"
        " -h,--help                   Print help\n"
        " -j,--jsonEnable <arg>       [local mode] Json format enable, Default: true. If exportFile is provided, will\n"
        "                             export Json file and ignore [-j].\n"
        " -n,--nameserverAddr <arg>   [rpc mode] nameserverAddr. If nameserverAddr and clusterName are provided, will\n"
        "                             ignore [-p, -e, -j, -b] args\n"
        " -p,--configPath <arg>       [local mode] Absolute path to the metadata config directory\n"
        " -t,--configType <arg>       Name of kv config, e.g. topics/subscriptionGroups/consumerOffsets. Required in\n"
        "                             local mode and default all in rpc mode.\n"
    ),
    "sendMessage": (
        "usage: mqadmin sendMessage [-b <arg>] [-c <arg>] [-h] [-i <arg>] [-k <arg>] [-m <arg>] [-n <arg>] -p <arg> -t\n"
        "       <arg>\n"
        " -b,--broker <arg>           Send message to target broker\n"
        " -c,--tags <arg>             Message tags\n"
        " -h,--help                   Print help\n"
        " -i,--qid <arg>              Send message to target queue\n"
        " -k,--key <arg>              Message keys\n"
        " -m,--msgTraceEnable <arg>   Message Trace Enable, Default: false\n"
        " -n,--namesrvAddr <arg>      Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -p,--body <arg>             UTF-8 string format of the message body\n"
        " -t,--topic <arg>            Topic name\n"
    ),
    "sendMsgStatus": (
        "usage: mqadmin sendMsgStatus -b <arg> [-c <arg>] [-h] [-n <arg>] [-s <arg>]\n"
        " -b,--brokerName <arg>    Broker Name e.g. clusterName_brokerName as DefaultCluster_broker-a\n"
        " -c,--count <arg>         send message count, Default: 50\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -s,--messageSize <arg>   Message Size, Default: 128\n"
    ),
    "setCommitLogReadAheadMode": (
        "usage: mqadmin setCommitLogReadAheadMode [-b <arg>] [-c <arg>] [-h] -m <arg> [-n <arg>]\n"
        " -b,--brokerAddr <arg>               set which broker\n"
        " -c,--clusterName <arg>              set which cluster\n"
        " -h,--help                           Print help\n"
        " -m,--commitLogReadAheadMode <arg>   set the CommitLog read ahead mode; 0 is default, 1 random read\n"
        " -n,--namesrvAddr <arg>              Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "setConsumeMode": (
        "usage: mqadmin setConsumeMode [-b <arg>] [-c <arg>] -g <arg> [-h] -m <arg> [-n <arg>] [-q <arg>] -t <arg>\n"
        " -b,--brokerAddr <arg>         create subscription group to which broker\n"
        " -c,--clusterName <arg>        create subscription group to which cluster\n"
        " -g,--groupName <arg>          consumer group name\n"
        " -h,--help                     Print help\n"
        " -m,--mode <arg>               consume mode. PULL/POP\n"
        " -n,--namesrvAddr <arg>        Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -q,--popShareQueueNum <arg>   num of queue which share in pop mode\n"
        " -t,--topicName <arg>          topic name\n"
    ),
    "skipAccumulatedMessage": (
        "usage: mqadmin skipAccumulatedMessage [-c <arg>] [-f <arg>] -g <arg> [-h] [-n <arg>] -t <arg>\n"
        " -c,--cluster <arg>       Cluster name or lmq parent topic, lmq is used to find the route.\n"
        " -f,--force <arg>         set the force rollback by timestamp switch[true|false]\n"
        " -g,--group <arg>         set the consumer group\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>         set the topic\n"
    ),
    "startMonitoring": (
        "usage: mqadmin startMonitoring [-h] [-n <arg>]\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "statsAll": (
        "usage: mqadmin statsAll [-a] [-h] [-n <arg>] [-t <arg>]\n"
        " -a,--activeTopic         print active topic only\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>         print select topic only\n"
    ),
    "topicClusterList": (
        "usage: mqadmin topicClusterList [-h] [-n <arg>] -t <arg>\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "topicList": (
        "usage: mqadmin topicList [-c] [-h] [-n <arg>]\n"
        " -c,--clusterModel        clusterModel\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "topicRoute": (
        "usage: mqadmin topicRoute [-h] [-l] [-n <arg>] -t <arg>\n"
        " -h,--help                Print help\n"
        " -l,--list                Use list format to print data\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "topicStatus": (
        "usage: mqadmin topicStatus [-c <arg>] [-h] [-n <arg>] -t <arg>\n"
        " -c,--cluster <arg>       cluster name or lmq parent topic, lmq is used to find the route.\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "updateAcl": (
        "usage: mqadmin updateAcl -a <arg> -b <arg> | -c <arg>  -d <arg> [-h] [-i <arg>] [-n <arg>] -r <arg> -s <arg>\n"
        " -a,--actions <arg>       the actions of acl to update\n"
        " -b,--brokerAddr <arg>    update acl to which broker\n"
        " -c,--clusterName <arg>   update acl to which cluster\n"
        " -d,--decision <arg>      the decision of acl to update\n"
        " -h,--help                Print help\n"
        " -i,--sourceIp <arg>      the sourceIps of acl to update\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -r,--resources <arg>     the resources of acl to update\n"
        " -s,--subject <arg>       the subject of acl to update.\n"
    ),
    "updateAclConfig": (
        "usage: mqadmin updateAclConfig -a <arg> -b <arg> | -c <arg>  [-g <arg>] [-h] [-i <arg>] [-m <arg>] [-n <arg>]\n"
        "       -s <arg> [-t <arg>] [-u <arg>] [-w <arg>]\n"
        " -a,--accessKey <arg>            set accessKey in acl config file\n"
        " -b,--brokerAddr <arg>           update acl config file to which broker\n"
        " -c,--clusterName <arg>          update acl config file to which cluster\n"
        " -g,--groupPerms <arg>           set groupPerms list,eg: groupD=DENY,groupD=SUB\n"
        " -h,--help                       Print help\n"
        " -i,--defaultTopicPerm <arg>     set default topicPerm in acl config file\n"
        " -m,--admin <arg>                set admin flag in acl config file\n"
        " -n,--namesrvAddr <arg>          Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -s,--secretKey <arg>            set secretKey in acl config file\n"
        " -t,--topicPerms <arg>           set topicPerms list,eg: topicA=DENY,topicD=SUB\n"
        " -u,--defaultGroupPerm <arg>     set default GroupPerm in acl config file\n"
        " -w,--whiteRemoteAddress <arg>   set white ip Address for account in acl config file\n"
    ),
    "updateBrokerConfig": (
        "usage: mqadmin updateBrokerConfig [-a <arg>] [-b <arg>] [-c <arg>] [-h] -k <arg> [-n <arg>] -v <arg>\n"
        " -a,--updateAllBroker <arg>   update all brokers include slave\n"
        " -b,--brokerAddr <arg>        update which broker\n"
        " -c,--clusterName <arg>       update which cluster\n"
        " -h,--help                    Print help\n"
        " -k,--key <arg>               config key\n"
        " -n,--namesrvAddr <arg>       Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -v,--value <arg>             config value\n"
    ),
    "updateColdDataFlowCtrGroupConfig": (
        "usage: mqadmin updateColdDataFlowCtrGroupConfig [-b <arg>] [-c <arg>] -g <arg> [-h] [-n <arg>] -v <arg>\n"
        " -b,--brokerAddr <arg>      update which broker\n"
        " -c,--clusterName <arg>     update which cluster\n"
        " -g,--consumerGroup <arg>   specific consumerGroup\n"
        " -h,--help                  Print help\n"
        " -n,--namesrvAddr <arg>     Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -v,--threshold <arg>       cold read threshold value\n"
    ),
    "updateControllerConfig": (
        "usage: mqadmin updateControllerConfig -a <arg> [-h] -k <arg> [-n <arg>] -v <arg>\n"
        " -a,--controllerAddress <arg>   Controller address list, eg: 192.168.0.1:9878;192.168.0.2:9878\n"
        " -h,--help                      Print help\n"
        " -k,--key <arg>                 config key\n"
        " -n,--namesrvAddr <arg>         Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -v,--value <arg>               config value\n"
    ),
    "updateGlobalWhiteAddr": (
        "usage: mqadmin updateGlobalWhiteAddr -b <arg> | -c <arg>  -g <arg> [-h] [-n <arg>] [-p <arg>]\n"
        " -b,--brokerAddr <arg>                   update global white address to which broker\n"
        " -c,--clusterName <arg>                  update global white address to which cluster\n"
        " -g,--globalWhiteRemoteAddresses <arg>   set globalWhiteRemoteAddress list,eg: 10.10.103.*,192.168.0.*\n"
        " -h,--help                               Print help\n"
        " -n,--namesrvAddr <arg>                  Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -p,--aclFileFullPath <arg>              update global white address of specified acl file,eg:\n"
        "                                         /xxx/plain_test.yml\n"
    ),
    "updateKvConfig": (
        "usage: mqadmin updateKvConfig [-h] -k <arg> [-n <arg>] -s <arg> -v <arg>\n"
        " -h,--help                Print help\n"
        " -k,--key <arg>           set the key name\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -s,--namespace <arg>     set the namespace\n"
        " -v,--value <arg>         set the key value\n"
    ),
    "updateNamesrvConfig": (
        "usage: mqadmin updateNamesrvConfig [-h] -k <arg> [-n <arg>] -v <arg>\n"
        " -h,--help                Print help\n"
        " -k,--key <arg>           config key\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -v,--value <arg>         config value\n"
    ),
    "updateOrderConf": (
        "usage: mqadmin updateOrderConf [-h] -m <arg> [-n <arg>] -t <arg> [-v <arg>]\n"
        " -h,--help                Print help\n"
        " -m,--method <arg>        option type [eg. put|get|delete\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>         topic name\n"
        " -v,--orderConf <arg>     set order conf [eg. brokerName1:num;brokerName2:num]\n"
    ),
    "updateStaticTopic": (
        "usage: mqadmin updateStaticTopic -b <arg> | -c <arg>  [-fr <arg>] [-h] [-mf <arg>] [-n <arg>] -qn <arg> -t\n"
        "       <arg>\n"
        " -b,--brokers <arg>          remapping static topic to brokers, comma separated\n"
        " -c,--clusters <arg>         remapping static topic to clusters, comma separated\n"
        " -fr,--forceReplace <arg>    Force replace the old mapping\n"
        " -h,--help                   Print help\n"
        " -mf,--mapFile <arg>         The mapping data file name\n"
        " -n,--namesrvAddr <arg>      Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -qn,--totalQueueNum <arg>   total queue num\n"
        " -t,--topic <arg>            topic name\n"
    ),
    "updateSubGroup": (
        "usage: mqadmin updateSubGroup [-a <arg>] [--attributes <arg>] [-b <arg>] [-c <arg>] [-d <arg>] -g <arg> [-h]\n"
        "       [-i <arg>] [-m <arg>] [-n <arg>] [-o <arg>] [-p <arg>] [-q <arg>] [-r <arg>] [-s <arg>] [-w <arg>]\n"
        " -a,--notifyConsumerIdsChanged <arg>       notify consumerId changed\n"
        "    --attributes <arg>                     attribute(+a=b,+c=d,-e)\n"
        " -b,--brokerAddr <arg>                     create subscription group to which broker\n"
        " -c,--clusterName <arg>                    create subscription group to which cluster\n"
        " -d,--consumeBroadcastEnable <arg>         broadcast\n"
        " -g,--groupName <arg>                      consumer group name\n"
        " -h,--help                                 Print help\n"
        " -i,--brokerId <arg>                       consumer from which broker id\n"
        " -m,--consumeFromMinEnable <arg>           from min offset\n"
        " -n,--namesrvAddr <arg>                    Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -o,--consumeMessageOrderly <arg>          consume message orderly\n"
        " -p,--groupRetryPolicy <arg>               the json string of retry policy ( exp:\n"
        '                                           {"type":"EXPONENTIAL","exponentialRetryPolicy":{"initial":5000,"max\n'
        '                                           ":7200000,"multiplier":2}}\n'
        '                                           {"type":"CUSTOMIZED","customizedRetryPolicy":{"next":[1000,5000,100\n'
        "                                           00]}} )\n"
        " -q,--retryQueueNums <arg>                 retry queue nums\n"
        " -r,--retryMaxTimes <arg>                  retry max times\n"
        " -s,--consumeEnable <arg>                  consume enable\n"
        " -w,--whichBrokerWhenConsumeSlowly <arg>   which broker id when consume slowly\n"
    ),
    "updateSubGroupList": (
        "usage: mqadmin updateSubGroupList -b <arg> | -c <arg>  -f <arg> [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    create groups to which broker\n"
        " -c,--clusterName <arg>   create groups to which cluster\n"
        " -f,--filename <arg>      Path to a file with a list of\n"
        "                          org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig in json\n"
        "                          format\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "updateTopic": (
        "usage: mqadmin updateTopic [-a <arg>] -b <arg> | -c <arg>  [-h] [-n <arg>] [-o <arg>] [-p <arg>] [-r <arg>]\n"
        "       [-s <arg>] -t <arg> [-u <arg>] [-w <arg>]\n"
        " -a,--attributes <arg>       attribute(+a=b,+c=d,-e)\n"
        " -b,--brokerAddr <arg>       create topic to which broker\n"
        " -c,--clusterName <arg>      create topic to which cluster\n"
        " -h,--help                   Print help\n"
        " -n,--namesrvAddr <arg>      Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -o,--order <arg>            set topic's order(true|false)\n"
        " -p,--perm <arg>             set topic's permission(2|4|6), intro[2:W 4:R; 6:RW]\n"
        " -r,--readQueueNums <arg>    set read queue nums\n"
        " -s,--hasUnitSub <arg>       has unit sub (true|false)\n"
        " -t,--topic <arg>            topic name\n"
        " -u,--unit <arg>             is unit topic (true|false)\n"
        " -w,--writeQueueNums <arg>   set write queue nums\n"
    ),
    "updateTopicList": (
        "usage: mqadmin updateTopicList -b <arg> | -c <arg>  -f <arg> [-h] [-n <arg>]\n"
        " -b,--brokerAddr <arg>    create topic to which broker\n"
        " -c,--clusterName <arg>   create topic to which cluster\n"
        " -f,--filename <arg>      Path to a file with list of org.apache.rocketmq.common.TopicConfig in json format\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "updateTopicPerm": (
        "usage: mqadmin updateTopicPerm [-b <arg>] [-c <arg>] [-h] [-n <arg>] -p <arg> -t <arg>\n"
        " -b,--brokerAddr <arg>    create topic to which broker\n"
        " -c,--clusterName <arg>   create topic to which cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -p,--perm <arg>          set topic's permission(2|4|6), intro[2:W; 4:R; 6:RW]\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "updateUser": (
        "usage: mqadmin updateUser -b <arg> | -c <arg>  [-h] [-n <arg>] -p <arg> | -s <arg> | -t <arg>   -u <arg>\n"
        " -b,--brokerAddr <arg>    update user to which broker\n"
        " -c,--clusterName <arg>   update user to which cluster\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -p,--password <arg>      the password of user to update\n"
        " -s,--userStatus <arg>    the userStatus of user to update\n"
        " -t,--userType <arg>      the userType of user to update\n"
        " -u,--username <arg>      the username of user to update.\n"
    ),
    "wipeWritePerm": (
        "usage: mqadmin wipeWritePerm -b <arg> [-h] [-n <arg>]\n"
        " -b,--brokerName <arg>    broker name\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
}
